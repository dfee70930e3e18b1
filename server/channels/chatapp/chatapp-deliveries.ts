import type { StoredContact } from '../../conversations/contact-store.ts'
import type { WriteBatcher } from '../../db/write-batcher.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { ChatappChannel } from '../../integrations/channel-lookups.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import { systemOutboxTime } from '../../outbox/outbox-time.ts'
import type { OutboxStore } from '../../outbox/outbox-store.ts'
import { DEFAULT_REQUEST_TIMEOUT_MS, type DeliveryTarget, outboxWorker, type OutboxTuning } from '../../outbox/outbox-worker.ts'
import type { EventBus } from '../../support/events.ts'
import type { Logger } from '../../support/logger.ts'
import type { OutboundUrlPolicy } from '../../support/outbound-url.ts'
import type { ChatappStore, DeliveryFilter } from './chatapp-store.ts'
import { cloudApiSender } from './cloud-api-sender.ts'
import { deliveryView } from './delivery-view.ts'
import type { MetaFlowView } from './meta-flow-message.ts'
import type { ChatappDelivery, SendStatus } from './model.ts'
import { chatappTurnWriter } from './turn-writer.ts'

export interface ChatappDeliveriesDeps {
  outbox: OutboxStore
  store: ChatappStore
  batch: WriteBatcher
  integrations: Pick<IntegrationService, 'findChatappById' | 'chatapp'>
  contactOf: (contactId: string) => StoredContact | undefined
  metaFlow: (workspaceId: string, chatbotId: string, flowId: string) => MetaFlowView | null
  events: EventBus
  outbound: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  logger: Logger
  /** PARLEY_CHATAPP_API_URL: the provider's API base, version included. */
  apiUrl: string
  tuning?: OutboxTuning & { ca?: string }
}

export const INTEGRATION_DELETED = 'the integration was deleted'
export const INTEGRATION_SWITCHED_OFF = 'the integration was switched off (is_active: false)'

export type ChatappDeliveries = ReturnType<typeof chatappDeliveries>

/**
 * The outbound half of the chatapp channel: what a turn adds to the outbox, the worker that
 * calls the provider's API with it, and what integration changes do to deliveries pending.
 */
export function chatappDeliveries(deps: ChatappDeliveriesDeps) {
  const { outbox, store, batch, integrations, events, outbound, logger, apiUrl, tuning = {} } = deps
  const time = tuning.time ?? systemOutboxTime
  const findIntegration = (id: string): ChatappChannel | null => integrations.findChatappById(id)
  const messagesUrl = (phoneNumberId: string) => `${apiUrl}/${encodeURIComponent(phoneNumberId)}/messages`

  /** Read at every attempt: a new access token or phone number id applies to what is queued. */
  function target(integrationId: string): DeliveryTarget {
    const integration = findIntegration(integrationId)
    if (!integration) return { ok: false, reason: INTEGRATION_DELETED }
    if (!integration.isActive) return { ok: false, reason: INTEGRATION_SWITCHED_OFF }
    // "." and ".." would leave the path rather than name a number.
    if (/^\.{1,2}$/.test(integration.phoneNumberId)) return { ok: false, reason: `phone_number_id "${integration.phoneNumberId}" is not a provider id` }
    return { ok: true, url: messagesUrl(integration.phoneNumberId), secret: integration.accessToken }
  }

  const worker = outboxWorker({
    ...tuning,
    kind: 'chatapp',
    time,
    store: outbox,
    batch,
    logger,
    target,
    send: cloudApiSender({ policy: outbound, time, timeoutMs: tuning.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, ca: tuning.ca }),
  })

  const unsubscribe = [
    events.on('conversation.messages', ({ conversation }) => {
      if (conversation.channel === 'chatapp') worker.wake()
    }),
    events.on('integration.removed', ({ integrationId, type }) => {
      if (type === 'chatapp') worker.dropIntegration(integrationId, INTEGRATION_DELETED)
    }),
    events.on('integration.changed', ({ integrationId, type, isActive }) => {
      if (type === 'chatapp' && !isActive) worker.dropIntegration(integrationId, INTEGRATION_SWITCHED_OFF)
    }),
  ]
  worker.start()

  return {
    turnWriter: chatappTurnWriter({ findIntegration, contactOf: deps.contactOf, metaFlow: deps.metaFlow, messagesUrl, outbox, sends: store, time }),
    worker,

    /** The chatbot's provider messages, newest first, with the provider's status reports; 404 as for the integration itself. */
    list(workspaceId: string, chatbotId: string, filter: { status?: SendStatus; conversation_id?: string }, page: Page): PageOf<ChatappDelivery> {
      const integration = integrations.chatapp.get(workspaceId, chatbotId)
      const stored: DeliveryFilter = { conversation_id: filter.conversation_id }
      if (filter.status) stored.status = filter.status === 'accepted' ? 'delivered' : filter.status
      const found = store.deliveries(integration.id, stored, page)
      const receipts = found.items.flatMap((row) => (row.receipt ? [row.receipt] : []))
      const statuses = store.statusesOf(integration.id, receipts)
      return { items: found.items.map((row) => deliveryView(row, statuses.filter((status) => status.wamid === row.receipt))), total: found.total }
    },

    async close(): Promise<void> {
      for (const off of unsubscribe) off()
      await worker.close()
    },
  }
}
