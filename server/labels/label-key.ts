/**
 * A label name as it is compared (uniqueness in a workspace, a flow's condition and step, a
 * search): trimmed, NFKC, folded to lower case as JavaScript does, in every script. Pure: the
 * engine compares with it too.
 */
export const labelKey = (name: string): string => name.trim().normalize('NFKC').toLowerCase()
