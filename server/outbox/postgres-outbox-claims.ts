import type { SQL } from 'bun'
import type { OutboxClaims } from './outbox-claims.ts'
import type { StoredDelivery } from './outbox-store.ts'

/** Bun.sql reads int8 as a string: seq is a bigint identity here. */
const delivery = (row: StoredDelivery): StoredDelivery => ({ ...row, seq: Number(row.seq) })

/**
 * The worker's side of the outbox on PostgreSQL. A claim locks the due rows it takes and skips
 * those another claimer holds (FOR UPDATE SKIP LOCKED), so several processes, or nodes, can
 * claim at once: none takes a delivery twice and none waits on another.
 */
export function postgresOutboxClaims(sql: SQL): OutboxClaims {
  // Times are ISO text of one fixed format, so any collation orders them as SQLite does, and outbox_due serves the order.
  /** The oldest pending delivery of the key that waits behind `seq` falls due at `at`. */
  async function promote(seq: number, at: string): Promise<void> {
    await sql`UPDATE outbox SET next_attempt_at = ${at} WHERE seq = (
      SELECT seq FROM outbox WHERE ordering_key = (SELECT ordering_key FROM outbox WHERE seq = ${seq})
      AND status = 'pending' AND next_attempt_at IS NULL ORDER BY seq LIMIT 1)`
  }

  return {
    async nextDueAt(kind) {
      const [row] = await sql<{ at: string | null }[]>`
        SELECT min(next_attempt_at) AS at FROM outbox WHERE kind = ${kind} AND status = 'pending' AND next_attempt_at IS NOT NULL`
      return row?.at ?? null
    },

    async claimDue(kind, now, limit, leaseUntil, busy) {
      if (limit <= 0) return []
      const skipped = [...busy.keys()].join(',')
      const rows = await sql<(StoredDelivery & { due_at: string })[]>`
        WITH due AS (
          SELECT seq, next_attempt_at AS due_at FROM outbox
          WHERE kind = ${kind} AND status = 'pending' AND next_attempt_at <= ${now}
            AND seq <> ALL(string_to_array(${skipped}, ',')::bigint[])
          ORDER BY next_attempt_at, seq LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = ${leaseUntil}, last_attempt_at = ${now}
        FROM due WHERE o.seq = due.seq
        RETURNING o.*, due.due_at`
      // In due order, as SQLite claims them.
      return [...rows]
        .sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : Number(a.seq) - Number(b.seq)))
        .map(({ due_at: _, ...row }) => delivery(row))
    },

    async delivered(seq, attempt, taken = { receipt: null, note: null }) {
      const set = (from: 'pending' | 'failed') => sql`
        UPDATE outbox SET status = 'delivered', next_attempt_at = NULL, finished_at = ${attempt.at}, url = ${attempt.url},
          last_status_code = ${attempt.statusCode}, last_error = NULL, receipt = ${taken.receipt}, note = ${taken.note}
        WHERE seq = ${seq} AND status = ${from}`
      if ((await set('pending')).count === 1) await promote(seq, attempt.at)
      else await set('failed')
    },

    async retryAt(seq, next, attempt) {
      await sql`UPDATE outbox SET next_attempt_at = ${next}, url = ${attempt.url}, last_status_code = ${attempt.statusCode}, last_error = ${attempt.error}
        WHERE seq = ${seq} AND status = 'pending'`
    },

    async fail(seq, attempt) {
      const failed = await sql`
        UPDATE outbox SET status = 'failed', next_attempt_at = NULL, finished_at = ${attempt.at}, url = ${attempt.url},
          last_status_code = ${attempt.statusCode}, last_error = ${attempt.error} WHERE seq = ${seq} AND status = 'pending'`
      if (failed.count === 1) await promote(seq, attempt.at)
    },

    async failPendingOfIntegration(integrationId, at, reason) {
      const dropped = await sql`UPDATE outbox SET status = 'failed', next_attempt_at = NULL, finished_at = ${at}, last_error = ${reason}
        WHERE integration_id = ${integrationId} AND status = 'pending'`
      return dropped.count
    },

    async prune(kind, before) {
      const removed = await sql`DELETE FROM outbox WHERE kind = ${kind} AND status <> 'pending' AND finished_at < ${before}`
      return removed.count
    },
  }
}
