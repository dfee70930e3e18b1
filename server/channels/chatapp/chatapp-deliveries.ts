import type { StoredContact } from '../../conversations/contact-store.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { ChatappChannel } from '../../integrations/channel-lookups.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import { channelOutbox } from '../../outbox/channel-outbox.ts'
import type { OutboxSeam } from '../../outbox/outbox-worker.ts'
import { type DeliveryLogFilter, deliveryLog } from '../../outbox/delivery-log.ts'
import type { OutboxStore } from '../../outbox/outbox-store.ts'
import type { OutboxTuning } from '../../outbox/outbox-worker.ts'
import type { EventBus } from '../../events/domain-events.ts'
import type { Logger } from '../../support/logger.ts'
import type { OutboundUrlPolicy } from '../../support/outbound-url.ts'
import type { ChatappStore } from './chatapp-store.ts'
import { cloudApiSender } from './cloud-api-sender.ts'
import { deliveryView } from './delivery-view.ts'
import type { MetaFlowView } from './meta-flow-message.ts'
import type { ChatappDelivery, SendStatus } from './model.ts'
import { chatappTurnWriter } from './turn-writer.ts'

export interface ChatappDeliveriesDeps {
  outbox: OutboxStore
  store: ChatappStore
  /** The worker's claims behind the store seam. */
  claims: OutboxSeam
  integrations: Pick<IntegrationService, 'findChatappById' | 'chatapp'>
  /** The integration by id, answered at once: a turn's writes are made in its tick (until the turn is a unit). */
  integrationNow: (integrationId: string) => ChatappChannel | null
  contactOf: (contactId: string) => StoredContact | undefined
  metaFlow: (workspaceId: string, chatbotId: string, flowId: string) => MetaFlowView | null
  events: EventBus
  outbound: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  logger: Logger
  /** PARLEY_CHATAPP_API_URL: the provider's API base, version included. */
  apiUrl: string
  tuning?: OutboxTuning & { ca?: string }
}

export type ChatappDeliveries = ReturnType<typeof chatappDeliveries>

/**
 * The outbound half of the chatapp channel: what a turn adds to the outbox, the worker that
 * calls the provider's API with it, and what integration changes do to deliveries pending.
 */
export function chatappDeliveries(deps: ChatappDeliveriesDeps) {
  const { outbox, store, integrations, apiUrl } = deps
  const messagesUrl = (phoneNumberId: string) => `${apiUrl}/${encodeURIComponent(phoneNumberId)}/messages`

  const { worker, time, close } = channelOutbox({
    claims: deps.claims,
    events: deps.events,
    outbound: deps.outbound,
    logger: deps.logger,
    tuning: deps.tuning,
    channel: 'chatapp',
    kind: 'chatapp',
    wakeOn: ['conversation.messages'],
    findIntegration: integrations.findChatappById,
    // Read at every attempt: a new access token or phone number id applies to what is queued.
    address: (integration) =>
      // "." and ".." would leave the path rather than name a number.
      /^\.{1,2}$/.test(integration.phoneNumberId)
        ? { ok: false, reason: `phone_number_id "${integration.phoneNumberId}" is not a provider id` }
        : { ok: true, url: messagesUrl(integration.phoneNumberId), secret: integration.accessToken },
    sender: cloudApiSender,
  })

  const log = deliveryLog<ChatappDelivery>(outbox, (rows, integrationId) => {
    const sends = new Map(store.sendsOf(rows.map((row) => row.id)).map((send) => [send.delivery_id, send]))
    const statuses = store.statusesOf(integrationId, rows.flatMap((row) => (row.receipt ? [row.receipt] : [])))
    return rows.map((row) => deliveryView(row, sends.get(row.id), statuses.filter((status) => status.wamid === row.receipt)))
  })

  return {
    turnWriter: chatappTurnWriter({ findIntegration: deps.integrationNow, contactOf: deps.contactOf, metaFlow: deps.metaFlow, messagesUrl, outbox, sends: store, time }),
    worker,

    /** The chatbot's provider messages, newest first, with the provider's status reports; 404 as for the integration itself. */
    async list(workspaceId: string, chatbotId: string, filter: { status?: SendStatus; conversation_id?: string }, page: Page): Promise<PageOf<ChatappDelivery>> {
      const { id } = await integrations.chatapp.get(workspaceId, chatbotId)
      const stored: DeliveryLogFilter = { conversation_id: filter.conversation_id }
      if (filter.status) stored.status = filter.status === 'accepted' ? 'delivered' : filter.status
      return log(id, stored, page)
    },

    close,
  }
}
