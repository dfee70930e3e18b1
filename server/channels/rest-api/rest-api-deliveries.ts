import type { StoredContact } from '../../conversations/contact-store.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { RestApiChannel } from '../../integrations/channel-lookups.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import { channelOutbox } from '../../outbox/channel-outbox.ts'
import type { OutboxSeam } from '../../outbox/outbox-worker.ts'
import { deliveryLog, deliveryLogParts } from '../../outbox/delivery-log.ts'
import type { DeliveryStatus, OutboxStore, StoredDelivery } from '../../outbox/outbox-store.ts'
import type { OutboxTuning } from '../../outbox/outbox-worker.ts'
import { isoAt } from '../../outbox/outbox-time.ts'
import { conflict, notFound } from '../../http/api-error.ts'
import { webhookSender } from '../../outbox/webhook-sender.ts'
import type { EventBus } from '../../events/domain-events.ts'
import type { Logger } from '../../support/logger.ts'
import type { OutboundUrlPolicy } from '../../support/outbound-url.ts'
import type { Delivery } from './model.ts'
import { restApiTurnWriter } from './turn-writer.ts'

export interface RestApiDeliveriesDeps {
  store: OutboxStore
  /** The worker's claims behind the store seam. */
  claims: OutboxSeam
  integrations: Pick<IntegrationService, 'findRestApiById' | 'restApi'>
  /** The integration by id, answered at once: a turn's writes are made in its tick (until the turn is a unit). */
  integrationNow: (integrationId: string) => RestApiChannel | null
  contactOf: (contactId: string) => StoredContact | undefined
  events: EventBus
  outbound: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  logger: Logger
  tuning?: OutboxTuning & { ca?: string }
}

export type RestApiDeliveries = ReturnType<typeof restApiDeliveries>

/**
 * The outbound half of the rest-api channel: what a turn adds to the outbox, the worker that
 * POSTs it to webhook_url, and what integration changes do to deliveries still pending.
 */
export function restApiDeliveries(deps: RestApiDeliveriesDeps) {
  const { store, integrations } = deps

  const { worker, time, close } = channelOutbox({
    claims: deps.claims,
    events: deps.events,
    outbound: deps.outbound,
    logger: deps.logger,
    tuning: deps.tuning,
    channel: 'rest-api',
    kind: 'webhook',
    wakeOn: ['conversation.messages', 'conversation.status'],
    findIntegration: integrations.findRestApiById,
    address: (integration) => ({ ok: true, url: integration.webhookUrl, secret: integration.signingSecret }),
    sender: webhookSender,
  })
  const log = deliveryLog(store, (rows) => rows.map(view))

  return {
    turnWriter: restApiTurnWriter({ findIntegration: deps.integrationNow, contactOf: deps.contactOf, store, time }),
    worker,

    /** The chatbot's rest-api deliveries, newest first; 404 as for the integration itself. */
    list: async (workspaceId: string, chatbotId: string, filter: { status?: DeliveryStatus }, page: Page): Promise<PageOf<Delivery>> =>
      log((await integrations.restApi.get(workspaceId, chatbotId)).id, filter, page),

    /**
     * Sends a failed delivery again, as it was (same webhook-id and payload, signed anew, to
     * the webhook_url of now): 404 unless it is one of this chatbot's, 409 unless it failed or
     * while the integration is switched off.
     */
    async redeliver(workspaceId: string, chatbotId: string, deliveryId: string): Promise<Delivery> {
      const integration = await integrations.restApi.get(workspaceId, chatbotId)
      const row = store.getById(deliveryId)
      if (!row || row.integration_id !== integration.id) throw notFound('delivery')
      if (!integration.is_active) throw conflict('integration_inactive', 'the rest-api integration is switched off; PATCH it with "is_active": true first')
      if (row.status !== 'failed') throw conflict('delivery_not_failed', `only a failed delivery is sent again; this one is ${row.status}`)
      const pending = store.redeliver(deliveryId, integration.id, isoAt(time.now()))
      if (!pending) throw conflict('delivery_not_failed', 'the delivery changed meanwhile; list the deliveries again')
      worker.wake()
      return view(pending)
    },

    close,
  }
}

function view(row: StoredDelivery): Delivery {
  const { head, attempts, end } = deliveryLogParts(row)
  return { ...head, status: row.status, ...attempts, url: row.url, ...end }
}
