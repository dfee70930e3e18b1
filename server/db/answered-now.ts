/**
 * A store's answer read in the caller's tick, for the few readers that must still answer
 * synchronously until their callers await (the conversation turn: wave 2 of
 * docs/postgres-plan.md). A SQLite store has answered before it returns its promise
 * (db/settled.ts), so its value is read at once with `Bun.peek`; a PostgreSQL store has not,
 * and this throws `NotAnsweredNow` rather than guess. Grep for it: each use is a place that
 * must await before Parley serves from PostgreSQL.
 */
export function answeredNow<T>(answer: Promise<T>): T {
  const status = Bun.peek.status(answer)
  if (status === 'fulfilled') return Bun.peek(answer) as T
  // Handled here, so that neither outcome is reported as unhandled: the caller gets it thrown.
  answer.catch(() => {})
  if (status === 'rejected') throw Bun.peek(answer)
  throw new NotAnsweredNow()
}

export class NotAnsweredNow extends Error {
  constructor() {
    super('a store answered asynchronously where its caller cannot wait yet (docs/postgres-plan.md, wave 2)')
  }
}
