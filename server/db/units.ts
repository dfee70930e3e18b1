/**
 * The unit-of-work port (docs/architecture.md, "The store seam"): what services write through,
 * whichever database is behind it. `Tx` is the stores a unit writes with, bound to its
 * transaction; services never see SQL, a connection or which database it is.
 *
 * A unit's work reads and writes through `tx` and awaits nothing else (no model call, no
 * fetch): on SQLite it holds the group commit open while it runs, on PostgreSQL a connection
 * and its row locks. Whatever can fail for a reason other than the database is checked before
 * the first write: on SQLite a unit that throws after writing rolls back every unit of its batch.
 */
export interface Units<Tx> {
  /** Runs `work` in one transaction; resolves with its result once committed, rejects with nothing of it stored. */
  unit<T>(work: (tx: Tx) => Promise<T>): Promise<T>
  /**
   * A unit of one conversation's (a turn, a status change): starts once this process's earlier
   * units of the same conversation have ended, and on PostgreSQL first locks the conversation's
   * row (SELECT ... FOR UPDATE), so that turns stay ordered across nodes too.
   */
  conversationUnit<T>(conversationId: string, work: (tx: Tx) => Promise<T>): Promise<T>
  /**
   * Someone is waiting for what was just written (an LLM agent's answer): commit it as soon as
   * the current task's code is done, not after the next round of I/O. SQLite's group commit
   * only; on PostgreSQL a unit commits as it ends.
   */
  soon?(): void
}

/** A unit that did its work but was not stored: another unit of its SQLite batch failed, or the commit did. */
export class UnitRolledBack extends Error {
  constructor() {
    super('the unit was rolled back with its batch')
  }
}
