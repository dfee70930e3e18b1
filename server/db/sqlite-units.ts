import type { Units } from './units.ts'
import { UnitRolledBack } from './units.ts'
import type { BatchStamp, WriteBatcher } from './write-batcher.ts'
import { keyedLock } from './keyed-lock.ts'

/**
 * The unit-of-work port on SQLite: each unit joins the group commit's open batch (one
 * connection, so `tx` is the same stores every time) and holds its commit until the unit's
 * work ends. A conversation's next unit starts when the previous one's work has ended, not
 * its commit: on one connection it reads what that one wrote, and if their batch fails both
 * are rolled back.
 */
export function sqliteUnits<Tx>(batch: WriteBatcher, tx: Tx): Units<Tx> {
  const conversations = keyedLock()

  async function work<T>(run: (tx: Tx) => Promise<T>): Promise<{ result: T; stamp: BatchStamp }> {
    const held = batch.hold()
    let result: T
    try {
      result = await run(tx)
    } catch (error) {
      held.release({ error })
      throw error
    }
    held.release()
    return { result, stamp: held.stamp }
  }

  async function committed<T>({ result, stamp }: { result: T; stamp: BatchStamp }): Promise<T> {
    if (!(await batch.outcomeSince(stamp))) throw new UnitRolledBack()
    return result
  }

  return {
    unit: (run) => work(run).then(committed),
    conversationUnit: (conversationId, run) => conversations.run(conversationId, () => work(run)).then(committed),
  }
}
