import type { SentDelivery, StatusRow } from './chatapp-store.ts'
import type { ChatappDelivery, ProviderError, ProviderStatus } from './model.ts'

/** How far a report says the message got; a failure outranks "sent" but not a later "delivered". */
const RANK: Record<ProviderStatus, number> = { sent: 1, failed: 2, delivered: 3, read: 4, played: 5 }

/** One provider message as agents and the API see it: the send, the provider's reports, and what it carried. */
export function deliveryView(row: SentDelivery, statuses: StatusRow[]): ChatappDelivery {
  const known = statuses.filter((status): status is StatusRow & { status: ProviderStatus } => status.status in RANK)
  const furthest = known.reduce<ProviderStatus | null>((best, { status }) => (best === null || RANK[status] > RANK[best] ? status : best), null)
  return {
    id: row.id,
    type: row.event_type,
    conversation_id: row.ordering_key,
    message_id: row.message_id ?? null,
    part: row.part ?? null,
    status: row.status === 'delivered' ? 'accepted' : row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_attempt_at: row.last_attempt_at,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    provider_message_id: row.receipt,
    provider_status: furthest,
    provider_statuses: statuses.map(({ status, at, errors }) => ({ status, at, errors: errors ? (JSON.parse(errors) as ProviderError[]) : null })),
    adaptation: row.adaptation ?? null,
    note: row.note,
    created_at: row.created_at,
    finished_at: row.finished_at,
    payload: JSON.parse(row.body) as unknown,
  }
}
