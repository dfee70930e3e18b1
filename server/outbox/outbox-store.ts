import type { Database } from 'bun:sqlite'
import type { Page, PageOf } from '../http/common-model.ts'

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/** What a delivery is, and so which worker sends it: a Standard Webhooks POST, or a call to the messaging provider's API. */
export type DeliveryKind = 'webhook' | 'chatapp'

/** One delivery as stored: what to send, where, and how its attempts went. */
export interface StoredDelivery {
  seq: number
  /** The webhook-id, the same on every attempt. */
  id: string
  kind: DeliveryKind
  chatbot_id: string
  integration_id: string
  ordering_key: string
  event_type: string
  body: string
  url: string
  status: DeliveryStatus
  attempts: number
  next_attempt_at: string | null
  last_attempt_at: string | null
  last_status_code: number | null
  last_error: string | null
  created_at: string
  finished_at: string | null
  /** The receiver's id for what it accepted (the provider's message id), once delivered, when it gave one. */
  receipt: string | null
  /** How the receiver took it, when that is worth telling (a fallback the sender used). */
  note: string | null
}

export type NewDelivery = Pick<StoredDelivery, 'id' | 'chatbot_id' | 'integration_id' | 'ordering_key' | 'event_type' | 'body' | 'url' | 'created_at'> & {
  /** Webhook unless said otherwise. */
  kind?: DeliveryKind
}

/** What an attempt ended with, as far as the row records it. */
export interface AttemptRecord {
  at: string
  url: string
  statusCode: number | null
  error: string | null
}

export type OutboxStore = ReturnType<typeof outboxStore>

/**
 * The outbox table. Deliveries that share an ordering key (a conversation) leave one at a
 * time, in order: only the oldest pending one of a key has a `next_attempt_at`; the others
 * wait without one and the next is given its time when the one before finishes, in the
 * same transaction. So finding what is due is one range of one index, however many
 * deliveries wait behind a receiver that is down.
 */
export function outboxStore(db: Database) {
  const insert = db.query(
    `INSERT INTO outbox (id, kind, chatbot_id, integration_id, ordering_key, event_type, body, url, status, next_attempt_at, created_at)
     VALUES ($id, $kind, $chatbot_id, $integration_id, $ordering_key, $event_type, $body, $url, 'pending',
       CASE WHEN EXISTS (SELECT 1 FROM outbox WHERE ordering_key = $ordering_key AND status = 'pending') THEN NULL ELSE $created_at END,
       $created_at)`,
  )
  const pendingByKind = db.query<{ kind: DeliveryKind; n: number }, []>(`SELECT kind, count(*) AS n FROM outbox WHERE status = 'pending' GROUP BY kind`)
  const due = db.query<StoredDelivery, [DeliveryKind, string, number]>(
    `SELECT * FROM outbox WHERE kind = ? AND status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?`,
  )
  const nextDue = db.query<{ at: string | null }, [DeliveryKind]>(
    `SELECT min(next_attempt_at) AS at FROM outbox WHERE kind = ? AND status = 'pending' AND next_attempt_at IS NOT NULL`,
  )
  const promote = db.query(
    `UPDATE outbox SET next_attempt_at = $at WHERE seq = (
       SELECT seq FROM outbox WHERE ordering_key = (SELECT ordering_key FROM outbox WHERE seq = $seq)
       AND status = 'pending' AND next_attempt_at IS NULL ORDER BY seq LIMIT 1)`,
  )
  const claim = db.query<StoredDelivery, [string, string, number]>(
    `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ?
     WHERE seq = ? AND status = 'pending' RETURNING *`,
  )
  const delivered = db.query(
    `UPDATE outbox SET status = 'delivered', next_attempt_at = NULL, finished_at = $at, url = $url,
     last_status_code = $statusCode, last_error = NULL, receipt = $receipt, note = $note WHERE seq = $seq AND status = $from`,
  )
  const retry = db.query(
    `UPDATE outbox SET next_attempt_at = $next, url = $url, last_status_code = $statusCode, last_error = $error
     WHERE seq = $seq AND status = 'pending'`,
  )
  const fail = db.query(
    `UPDATE outbox SET status = 'failed', next_attempt_at = NULL, finished_at = $at, url = $url,
     last_status_code = $statusCode, last_error = $error WHERE seq = $seq AND status = 'pending'`,
  )
  const failOfIntegration = db.query<{ seq: number }, [string, string, string]>(
    `UPDATE outbox SET status = 'failed', next_attempt_at = NULL, finished_at = ?, last_error = ?
     WHERE integration_id = ? AND status = 'pending' RETURNING seq`,
  )
  // Back to pending with its webhook-id kept, so a receiver that did get it can tell; it waits
  // behind a delivery of the same conversation already on its way, as a new one would.
  const redeliver = db.query<StoredDelivery, { $id: string; $integration: string; $at: string }>(
    `UPDATE outbox SET status = 'pending', finished_at = NULL,
       next_attempt_at = CASE WHEN EXISTS (
         SELECT 1 FROM outbox o WHERE o.ordering_key = outbox.ordering_key AND o.status = 'pending' AND o.next_attempt_at IS NOT NULL
       ) THEN NULL ELSE $at END
     WHERE id = $id AND integration_id = $integration AND status = 'failed' RETURNING *`,
  )
  const bySeq = db.query<StoredDelivery, [number]>('SELECT * FROM outbox WHERE seq = ?')
  const byId = db.query<StoredDelivery, [string]>('SELECT * FROM outbox WHERE id = ?')
  const prune = db.query<{ seq: number }, [DeliveryKind, string]>(
    `DELETE FROM outbox WHERE kind = ? AND status != 'pending' AND finished_at < ? RETURNING seq`,
  )

  return {
    insert: (row: NewDelivery) => void insert.run({ ...row, kind: row.kind ?? 'webhook' }),
    /** Deliveries waiting, by kind (read through the pending rows' own index: as many rows as wait). */
    pendingByKind: () => pendingByKind.all(),

    /**
     * Takes up to `limit` due deliveries, skipping `busy` ones (already being sent): each
     * counts an attempt and is leased until `leaseUntil`, so that a process that dies while
     * sending leaves it to be sent again once the lease runs out.
     */
    claimDue(kind: DeliveryKind, now: string, limit: number, leaseUntil: string, busy: { has(seq: number): boolean; size: number }): StoredDelivery[] {
      if (limit <= 0) return []
      const claimed: StoredDelivery[] = []
      for (const row of due.all(kind, now, limit + busy.size)) {
        if (claimed.length >= limit) break
        if (busy.has(row.seq)) continue
        const taken = claim.get(leaseUntil, now, row.seq)
        if (taken) claimed.push(taken)
      }
      return claimed
    },

    /** When the worker must look again: the earliest time a delivery at the head of its order falls due. */
    nextDueAt: (kind: DeliveryKind): string | null => nextDue.get(kind)?.at ?? null,

    /** Recorded even when the delivery was dropped meanwhile: the receiver did get it. */
    delivered(seq: number, attempt: AttemptRecord, taken: { receipt: string | null; note: string | null } = { receipt: null, note: null }): void {
      if (delivered.run({ seq, from: 'pending', ...taken, ...attempt }).changes === 1) promote.run({ seq, at: attempt.at })
      else delivered.run({ seq, from: 'failed', ...taken, ...attempt })
    },
    retryAt: (seq: number, next: string, attempt: AttemptRecord) => void retry.run({ seq, next, ...attempt }),
    fail(seq: number, attempt: AttemptRecord): void {
      if (fail.run({ seq, ...attempt }).changes === 1) promote.run({ seq, at: attempt.at })
    },

    /** Drops every pending delivery of an integration (deleted or switched off), waiting ones too; answers how many. */
    failPendingOfIntegration: (integrationId: string, at: string, reason: string): number =>
      failOfIntegration.all(at, reason, integrationId).length,

    /** Sends a failed delivery of the integration again from now; undefined unless it is one. */
    redeliver: (id: string, integrationId: string, at: string) => redeliver.get({ $id: id, $integration: integrationId, $at: at }) ?? undefined,

    get: (seq: number) => bySeq.get(seq) ?? undefined,
    getById: (id: string) => byId.get(id) ?? undefined,

    /** An integration's deliveries, newest first; `conversation_id` is the ordering key the turn writers give them. */
    list(integrationId: string, filter: { status?: DeliveryStatus; conversation_id?: string }, page: Page): PageOf<StoredDelivery> {
      const where = ['integration_id = $integration']
      const params: Record<string, string> = { integration: integrationId }
      if (filter.status) {
        where.push('status = $status')
        params.status = filter.status
      }
      if (filter.conversation_id) {
        where.push('ordering_key = $conversation')
        params.conversation = filter.conversation_id
      }
      const clause = where.join(' AND ')
      const items = db
        .query<StoredDelivery, Record<string, string | number>>(`SELECT * FROM outbox WHERE ${clause} ORDER BY seq DESC LIMIT $limit OFFSET $offset`)
        .all({ ...params, limit: page.limit, offset: page.offset })
      const total = db.query<{ n: number }, Record<string, string>>(`SELECT count(*) AS n FROM outbox WHERE ${clause}`).get(params)?.n ?? 0
      return { items, total }
    },

    /** Forgets finished deliveries of a kind older than `before`; answers how many. */
    prune: (kind: DeliveryKind, before: string): number => prune.all(kind, before).length,
  }
}
