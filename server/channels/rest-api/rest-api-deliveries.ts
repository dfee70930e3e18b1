import type { WriteBatcher } from '../../db/write-batcher.ts'
import type { StoredContact } from '../../conversations/contact-store.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { RestApiChannel } from '../../integrations/channel-lookups.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import { systemOutboxTime } from '../../outbox/outbox-time.ts'
import type { DeliveryStatus, OutboxStore, StoredDelivery } from '../../outbox/outbox-store.ts'
import { DEFAULT_REQUEST_TIMEOUT_MS, type DeliveryTarget, outboxWorker, type OutboxTuning } from '../../outbox/outbox-worker.ts'
import { webhookSender } from '../../outbox/webhook-sender.ts'
import type { EventBus } from '../../support/events.ts'
import type { Logger } from '../../support/logger.ts'
import type { OutboundUrlPolicy } from '../../support/outbound-url.ts'
import type { Delivery } from './model.ts'
import { restApiTurnWriter } from './turn-writer.ts'

export interface RestApiDeliveriesDeps {
  store: OutboxStore
  batch: WriteBatcher
  integrations: Pick<IntegrationService, 'findRestApiById' | 'restApi'>
  contactOf: (contactId: string) => StoredContact | undefined
  events: EventBus
  outbound: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  logger: Logger
  tuning?: OutboxTuning & { ca?: string }
}

export const INTEGRATION_DELETED = 'the integration was deleted'
export const INTEGRATION_SWITCHED_OFF = 'the integration was switched off (is_active: false)'

export type RestApiDeliveries = ReturnType<typeof restApiDeliveries>

/**
 * The outbound half of the rest-api channel: what a turn adds to the outbox, the worker that
 * POSTs it to webhook_url, and what integration changes do to deliveries still pending.
 */
export function restApiDeliveries(deps: RestApiDeliveriesDeps) {
  const { store, batch, integrations, events, outbound, logger, tuning = {} } = deps
  const time = tuning.time ?? systemOutboxTime
  const findIntegration = (id: string): RestApiChannel | null => integrations.findRestApiById(id)

  function target(integrationId: string): DeliveryTarget {
    const integration = findIntegration(integrationId)
    if (!integration) return { ok: false, reason: INTEGRATION_DELETED }
    if (!integration.isActive) return { ok: false, reason: INTEGRATION_SWITCHED_OFF }
    return { ok: true, url: integration.webhookUrl, secret: integration.signingSecret }
  }

  const worker = outboxWorker({
    ...tuning,
    time,
    store,
    batch,
    logger,
    target,
    send: webhookSender({ policy: outbound, time, timeoutMs: tuning.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, ca: tuning.ca }),
  })

  const wakeFor = ({ conversation }: { conversation: { channel: string } }) => {
    if (conversation.channel === 'rest-api') worker.wake()
  }
  const unsubscribe = [
    events.on('conversation.messages', wakeFor),
    events.on('conversation.status', wakeFor),
    events.on('integration.removed', ({ integrationId, type }) => {
      if (type === 'rest-api') worker.dropIntegration(integrationId, INTEGRATION_DELETED)
    }),
    events.on('integration.changed', ({ integrationId, type, isActive }) => {
      if (type === 'rest-api' && !isActive) worker.dropIntegration(integrationId, INTEGRATION_SWITCHED_OFF)
    }),
  ]
  worker.start()

  return {
    turnWriter: restApiTurnWriter({ findIntegration, contactOf: deps.contactOf, store, time }),
    worker,

    /** The chatbot's rest-api deliveries, newest first; 404 as for the integration itself. */
    list(workspaceId: string, chatbotId: string, filter: { status?: DeliveryStatus }, page: Page): PageOf<Delivery> {
      const integration = integrations.restApi.get(workspaceId, chatbotId)
      const found = store.list(integration.id, filter, page)
      return { items: found.items.map(view), total: found.total }
    },

    async close(): Promise<void> {
      for (const off of unsubscribe) off()
      await worker.close()
    },
  }
}

function view(row: StoredDelivery): Delivery {
  return {
    id: row.id,
    type: row.event_type,
    // The turn writer orders a conversation's deliveries by its id.
    conversation_id: row.ordering_key,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_attempt_at: row.last_attempt_at,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    url: row.url,
    created_at: row.created_at,
    finished_at: row.finished_at,
    payload: JSON.parse(row.body) as unknown,
  }
}
