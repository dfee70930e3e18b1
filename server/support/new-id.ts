import { monotonicFactory } from 'ulid'

/** ULIDs that sort in creation order even within one millisecond. */
export const newId: () => string = monotonicFactory()
