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
  return {
    unit: (work) => sql.begin((tx) => work(storesOn(tx))) as Promise<never>,
    conversationUnit: (conversationId, work) =>
      conversations.run(conversationId, () =>
        sql.begin(async (tx) => {
          await tx`SELECT id FROM conversations WHERE id = ${conversationId} FOR UPDATE`
          return work(storesOn(tx))
        }) as Promise<never>,
      ),
  }
}
