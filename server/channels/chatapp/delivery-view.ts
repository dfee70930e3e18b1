import { deliveryLogParts } from '../../outbox/delivery-log.ts'
import type { StoredDelivery } from '../../outbox/outbox-store.ts'
import type { SendRow, StatusRow } from './chatapp-store.ts'
import type { ChatappDelivery, ProviderError, ProviderStatus } from './model.ts'

/** How far a report says the message got; a failure outranks "sent" but not a later "delivered". */
const RANK: Record<ProviderStatus, number> = { sent: 1, failed: 2, delivered: 3, read: 4, played: 5 }

/** One provider message as agents and the API see it: the send, the provider's reports, and what it carried. */
export function deliveryView(row: StoredDelivery, send: SendRow | undefined, statuses: StatusRow[]): ChatappDelivery {
  const known = statuses.filter((status): status is StatusRow & { status: ProviderStatus } => status.status in RANK)
  const furthest = known.reduce<ProviderStatus | null>((best, { status }) => (best === null || RANK[status] > RANK[best] ? status : best), null)
  const { head, attempts, end } = deliveryLogParts(row)
  return {
    ...head,
    message_id: send?.message_id ?? null,
    part: send?.part ?? null,
    status: row.status === 'delivered' ? 'accepted' : row.status,
    ...attempts,
    provider_message_id: row.receipt,
    provider_status: furthest,
    provider_statuses: statuses.map(({ status, at, errors }) => ({ status, at, errors: errors ? (JSON.parse(errors) as ProviderError[]) : null })),
    adaptation: send?.adaptation ?? null,
    note: row.note,
    ...end,
  }
}
