import type { Page, PageOf } from '../http/common-model.ts'
import type { DeliveryStatus, OutboxStore, StoredDelivery } from './outbox-store.ts'

/** Which of an integration's deliveries a log lists. */
export interface DeliveryLogFilter {
  status?: DeliveryStatus
  conversation_id?: string
}

/**
 * An integration's deliveries, newest first, a page at a time, as its channel shows them:
 * `view` is given the whole page, so that what it adds (the provider's reports) is read in
 * one query rather than one a row.
 */
export function deliveryLog<Entry>(outbox: OutboxStore, view: (rows: StoredDelivery[], integrationId: string) => Entry[]) {
  return (integrationId: string, filter: DeliveryLogFilter, page: Page): PageOf<Entry> => {
    const found = outbox.list(integrationId, filter, page)
    return { items: view(found.items, integrationId), total: found.total }
  }
}

/**
 * What every channel's delivery log shows of an outbox row, in three parts so that each
 * channel can put its own fields between them where its listing has them.
 */
export function deliveryLogParts(row: StoredDelivery) {
  return {
    head: {
      id: row.id,
      type: row.event_type,
      // The turn writers order a conversation's deliveries by its id.
      conversation_id: row.ordering_key,
    },
    attempts: {
      attempts: row.attempts,
      next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
      last_attempt_at: row.last_attempt_at,
      last_status_code: row.last_status_code,
      last_error: row.last_error,
    },
    end: {
      created_at: row.created_at,
      finished_at: row.finished_at,
      payload: JSON.parse(row.body) as unknown,
    },
  }
}
