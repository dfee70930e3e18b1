import type { Database } from 'bun:sqlite'

/** A point in the batcher's history: the writes made after it are the ones `outcomeSince` answers for. */
export type BatchStamp = number

export interface WriteBatcher {
  /**
   * Runs `work` inside the current batch, and `afterCommit` once the batch is committed.
   * `work` must only write: everything that can fail for a reason other than the database
   * itself is worked out before, because a write that throws rolls the whole batch back.
   */
  run(work: () => void, afterCommit?: () => void): void
  /**
   * Runs `work` inside the open batch just before it commits (once per call, in the order
   * asked), for rows that gather many units' writes into one: the desk feed's entries of a
   * whole batch are one row instead of one each. It may call `run`; if it throws, the batch is
   * rolled back. With no batch of the batcher's own open (inside someone else's transaction,
   * or none at all), it runs at once.
   */
  beforeCommit(work: () => void): void
  /** Commits the open batch now, and any batch its callbacks open, until none is open (at shutdown). */
  flush(): void
  /**
   * Commits the open batch as soon as the current task's code is done (a microtask), instead
   * of after the event loop's next round of I/O: for a write someone is waiting on, such as an
   * LLM agent's answer, which would otherwise wait behind every socket and response ready in
   * that round. The batch is smaller for it; the units already in it and any written in the
   * same task share it as usual. Nothing open: nothing to do.
   */
  soon(): void
  /** Now, as a point to ask `outcomeSince` about later. */
  stamp(): BatchStamp
  /**
   * Whether every write made on the connection since `stamp` is committed: `true` at once when
   * no batch is open and none was rolled back since; `false` once a batch open since then was
   * rolled back; else a promise of the open batch's outcome. Writes made outside `run` while a
   * batch is open (a store writing directly) share its transaction, so they are answered for too.
   */
  outcomeSince(stamp: BatchStamp): boolean | Promise<boolean>
  /**
   * Joins the open batch (opening one) for work that awaits between its writes: a unit of the
   * store seam (sqlite-units.ts). The batch is not committed until every hold is released; a
   * hold released with an error rolls the batch back once the last one is released, and a
   * write that fails meanwhile does the same, so no holder's writes outlive a rolled-back batch.
   */
  hold(): { stamp: BatchStamp; release(failed?: { error: unknown }): void }
}

/**
 * Group commit: every unit of work written in one turn of the event loop shares one write
 * transaction, committed just after the turn. A SQLite commit costs far more than the few
 * inserts of a chat message, so a busy server stores many visitors' messages for the price
 * of one commit. Whatever must not happen before the data is stored (delivering messages,
 * answering an HTTP request) waits for `afterCommit` or `outcomeSince`. Units are not
 * savepoints (journaling every page a unit touches would double the cost); a failing write is
 * a database failure, and then the whole batch is rolled back and none of its units are
 * announced.
 */
export function writeBatcher(db: Database, onError: (error: unknown) => void): WriteBatcher {
  let open = false
  /** The open batch already has a microtask commit queued by `soon`. */
  let hurried = false
  let waiting: (() => void)[] = []
  let finishing: (() => void)[] = []
  /** Batches are numbered from 1; `serial` is the open one's number, or the last one's. */
  let serial = 0
  let lastRolledBack = 0
  // Made only when someone asks: the widget's path never does, and pays nothing for it.
  let outcome: { promise: Promise<boolean>; settle: (committed: boolean) => void } | null = null
  /** Units holding the open batch, whether its commit came due meanwhile, and the first failure among them. */
  let holds = 0
  let due = false
  let failure: { error: unknown } | null = null

  function end(statement: 'COMMIT' | 'ROLLBACK'): (() => void)[] {
    open = false
    const callbacks = waiting
    waiting = []
    db.exec(statement)
    return callbacks
  }

  function settle(committed: boolean): void {
    if (!committed) lastRolledBack = serial
    const asked = outcome
    outcome = null
    asked?.settle(committed)
  }

  function rollBack(error: unknown): void {
    open = false
    waiting = []
    finishing = []
    if (db.inTransaction) db.exec('ROLLBACK')
    settle(false)
    onError(error)
  }

  function commit(): void {
    if (!open) return
    if (holds > 0) {
      due = true
      return
    }
    let callbacks: (() => void)[]
    try {
      // A hook may ask for another (a unit it runs may): each round takes what is asked so far.
      while (finishing.length > 0) {
        const hooks = finishing
        finishing = []
        for (const hook of hooks) hook()
      }
      callbacks = end('COMMIT')
    } catch (error) {
      rollBack(error)
      return
    }
    settle(true)
    for (const callback of callbacks) callback()
  }

  /** As `run` opens a batch. */
  function begin(): void {
    db.exec('BEGIN IMMEDIATE')
    open = true
    hurried = false
    serial++
    setImmediate(commit)
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
        hurried = false
        serial++
        setImmediate(commit)
      }
      try {
        work()
      } catch (error) {
        if (holds > 0) {
          failure ??= { error }
          throw error
        }
        rollBack(error)
        throw error
      }
      if (afterCommit) waiting.push(afterCommit)
    },
    beforeCommit(work) {
      if (open) finishing.push(work)
      else work()
    },
    flush() {
      // A callback may write again (a delivery recording its outcome): bounded, since each round must be new work.
      for (let round = 0; open && round < 100; round++) commit()
    },
    soon() {
      if (!open || hurried) return
      hurried = true
      // A later batch opened before this runs is committed early too, which is harmless.
      queueMicrotask(commit)
    },
    stamp: () => (open ? serial : serial + 1),
    outcomeSince(stamp) {
      if (lastRolledBack >= stamp) return false
      if (!open) return true
      if (!outcome) {
        let settle: (committed: boolean) => void = () => {}
        const promise = new Promise<boolean>((resolve) => (settle = resolve))
        outcome = { promise, settle }
      }
      return outcome.promise
    },
    hold() {
      // Inside a transaction someone else owns: it commits or rolls back with theirs.
      if (!open && db.inTransaction) return { stamp: serial + 1, release() {} }
      if (!open) begin()
      holds++
      return {
        stamp: serial,
        release(failed) {
          holds--
          if (failed) failure ??= failed
          if (holds > 0) return
          if (failure) {
            const { error } = failure
            failure = null
            due = false
            open = false
            waiting = []
            rollBack(error)
          } else if (due) {
            due = false
            queueMicrotask(commit)
          }
        },
      }
    },
  }
}
