import type { Database } from 'bun:sqlite'

export interface WriteBatcher {
  /**
   * Runs `work` inside the current batch, and `afterCommit` once the batch is committed.
   * `work` must only write: everything that can fail for a reason other than the database
   * itself is worked out before, because a write that throws rolls the whole batch back.
   */
  run(work: () => void, afterCommit?: () => void): void
  /** Commits the open batch now, and any batch its callbacks open, until none is open (at shutdown). */
  flush(): void
}

/**
 * Group commit: every unit of work written in one turn of the event loop shares one write
 * transaction, committed just after the turn. A SQLite commit costs far more than the few
 * inserts of a chat message, so a busy server stores many visitors' messages for the price
 * of one commit. Whatever must not happen before the data is stored (delivering messages)
 * waits for `afterCommit`. Units are not savepoints (journaling every page a unit touches
 * would double the cost); a failing write is a database failure, and then the whole batch is
 * rolled back and none of its units are announced.
 */
export function writeBatcher(db: Database, onError: (error: unknown) => void): WriteBatcher {
  let open = false
  let waiting: (() => void)[] = []

  function end(statement: 'COMMIT' | 'ROLLBACK'): (() => void)[] {
    open = false
    const callbacks = waiting
    waiting = []
    db.exec(statement)
    return callbacks
  }

  function commit(): void {
    if (!open) return
    let callbacks: (() => void)[]
    try {
      callbacks = end('COMMIT')
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK')
      onError(error)
      return
    }
    for (const callback of callbacks) callback()
  }

  return {
    run(work, afterCommit) {
      if (!open && db.inTransaction) {
        // Inside a transaction someone else owns: it commits or rolls back with theirs.
        work()
        if (afterCommit) queueMicrotask(afterCommit)
        return
      }
      if (!open) {
        db.exec('BEGIN IMMEDIATE')
        open = true
        setImmediate(commit)
      }
      try {
        work()
      } catch (error) {
        end('ROLLBACK')
        onError(error)
        throw error
      }
      if (afterCommit) waiting.push(afterCommit)
    },
    flush() {
      // A callback may write again (a delivery recording its outcome): bounded, since each round must be new work.
      for (let round = 0; open && round < 100; round++) commit()
    },
  }
}
