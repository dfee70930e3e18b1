import type { Database } from 'bun:sqlite'

export interface WriteBatcher {
  /**
   * Runs `work` as one all-or-nothing unit inside the current batch, and `afterCommit` once
   * the batch is durable in the WAL. Returns what `work` returns; throws what it throws
   * (undoing only this unit).
   */
  run<T>(work: () => T, afterCommit?: () => void): T
  /** Commits the open batch now (at shutdown). */
  flush(): void
}

/**
 * Group commit: every unit of work that runs in one turn of the event loop shares one write
 * transaction, committed just after the turn. A SQLite commit costs far more than the
 * inserts in it, so a busy server stores many visitors' messages for the price of one;
 * each unit is a savepoint, so a failing unit does not take the others down. Whatever must
 * not happen before the data is stored (delivering messages) waits for `afterCommit`.
 */
export function writeBatcher(db: Database, onError: (error: unknown) => void): WriteBatcher {
  let open = false
  let waiting: (() => void)[] = []

  function commit(): void {
    if (!open) return
    open = false
    const callbacks = waiting
    waiting = []
    try {
      db.exec('COMMIT')
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK')
      onError(error)
      return
    }
    for (const callback of callbacks) callback()
  }

  return {
    run(work, afterCommit) {
      if (!open && !db.inTransaction) {
        db.exec('BEGIN IMMEDIATE')
        open = true
        setImmediate(commit)
      }
      const result = db.transaction(work).immediate()
      if (afterCommit) {
        if (open) waiting.push(afterCommit)
        // Inside someone else's transaction: it commits when its owner finishes, synchronously.
        else queueMicrotask(afterCommit)
      }
      return result
    },
    flush: commit,
  }
}
