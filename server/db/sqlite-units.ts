import type { Units } from './units.ts'
import { UnitRolledBack } from './units.ts'
import type { BatchStamp, WriteBatcher } from './write-batcher.ts'

/**
 * The unit-of-work port on SQLite: each unit joins the group commit's open batch (one
 * connection, so `tx` is the same stores every time) and holds its commit until the unit's
 * work ends. A conversation's next unit starts when the previous one's work has ended, not
 * its commit: on one connection it reads what that one wrote, and if their batch fails both
 * are rolled back.
 *
 * This is on every chat turn's path, so it makes few promises: one reaction ends the work
 * (the hold released, the conversation's queue moved on), one waits for the commit
 * (scripts/bench/store-seam.ts measures what is left).
 */
export function sqliteUnits<Tx>(batch: WriteBatcher, tx: Tx): Units<Tx> {
  /** Per conversation, the work of its latest unit: the next one starts when it ends. */
  const latest = new Map<string, Promise<unknown>>()

  function committed<T>(result: T, stamp: BatchStamp): T | Promise<T> {
    const outcome = batch.outcomeSince(stamp)
    if (outcome === true) return result
    if (outcome === false) throw new UnitRolledBack()
    return outcome.then((stored) => {
      if (!stored) throw new UnitRolledBack()
      return result
    })
  }

  /** Runs the work holding the batch; `ended` runs as it ends, whichever way. */
  function work<T>(run: (tx: Tx) => Promise<T>, ended?: () => void): { worked: Promise<T>; stamp: BatchStamp } {
    let held: ReturnType<WriteBatcher['hold']>
    try {
      held = batch.hold()
    } catch (error) {
      // The database is closed or failing: a unit answers with a rejection, as on PostgreSQL, never a throw.
      ended?.()
      return { worked: Promise.reject(error), stamp: 0 }
    }
    let running: Promise<T>
    try {
      running = run(tx)
    } catch (error) {
      running = Promise.reject(error)
    }
    const worked = running.then(
      (result) => {
        held.release()
        ended?.()
        return result
      },
      (error: unknown) => {
        held.release({ error })
        ended?.()
        throw error
      },
    )
    return { worked, stamp: held.stamp }
  }

  return {
    soon: () => batch.soon(),

    unit(run) {
      const { worked, stamp } = work(run)
      return worked.then((result) => committed(result, stamp))
    },

    conversationUnit<T>(conversationId: string, run: (tx: Tx) => Promise<T>): Promise<T> {
      let stamp = 0
      let worked: Promise<T>
      const ended = () => {
        if (latest.get(conversationId) === worked) latest.delete(conversationId)
      }
      const start = () => {
        const started = work(run, ended)
        stamp = started.stamp
        return started.worked
      }
      const previous = latest.get(conversationId)
      worked = previous ? previous.then(start, start) : start()
      latest.set(conversationId, worked)
      return worked.then((result) => committed(result, stamp))
    },
  }
}
