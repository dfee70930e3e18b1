import type { SQL } from 'bun'
import { keyedLock } from '../keyed-lock.ts'
import type { Units } from '../units.ts'

/**
 * The unit-of-work port on PostgreSQL: each unit is a transaction of the pool, with the stores
 * bound to it. A conversation's units wait for each other in this process (so they do not hold
 * connections while waiting on a row lock) and take the conversation's row lock, which orders
 * them across nodes: a turn reads the state the previous one committed.
 */
export function postgresUnits<Tx>(sql: SQL, storesOn: (connection: SQL) => Tx): Units<Tx> {
  const conversations = keyedLock()
  // Bun.sql types a transaction's result for queries returned whole; a unit returns its own value.
  const begin = <T>(work: (tx: SQL) => Promise<T>) => sql.begin(work) as Promise<T>
  return {
    unit: (work) => begin((tx) => work(storesOn(tx))),
    conversationUnit: (conversationId, work) =>
      conversations.run(conversationId, () =>
        begin(async (tx) => {
          await tx`SELECT id FROM conversations WHERE id = ${conversationId} FOR UPDATE`
          return work(storesOn(tx))
        }),
      ),
  }
}
