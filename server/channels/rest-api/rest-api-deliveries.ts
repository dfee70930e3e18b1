import type { WriteBatcher } from '../../db/write-batcher.ts'
import type { StoredContact } from '../../conversations/contact-store.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { RestApiChannel } from '../../integrations/channel-lookups.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import { channelOutbox } from '../../outbox/channel-outbox.ts'
import { deliveryLog, deliveryLogParts } from '../../outbox/delivery-log.ts'
import type { DeliveryStatus, OutboxStore, StoredDelivery } from '../../outbox/outbox-store.ts'
import type { OutboxTuning } from '../../outbox/outbox-worker.ts'
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

export type RestApiDeliveries = ReturnType<typeof restApiDeliveries>

/**
 * The outbound half of the rest-api channel: what a turn adds to the outbox, the worker that
 * POSTs it to webhook_url, and what integration changes do to deliveries still pending.
 */
export function restApiDeliveries(deps: RestApiDeliveriesDeps) {
  const { store, integrations } = deps
  const findIntegration = (id: string): RestApiChannel | null => integrations.findRestApiById(id)

  const { worker, time, close } = channelOutbox({
    store,
    batch: deps.batch,
    events: deps.events,
    outbound: deps.outbound,
    logger: deps.logger,
    tuning: deps.tuning,
    channel: 'rest-api',
    kind: 'webhook',
    wakeOn: ['conversation.messages', 'conversation.status'],
    findIntegration,
    address: (integration) => ({ ok: true, url: integration.webhookUrl, secret: integration.signingSecret }),
    sender: webhookSender,
  })
  const log = deliveryLog(store, (rows) => rows.map(view))

  return {
    turnWriter: restApiTurnWriter({ findIntegration, contactOf: deps.contactOf, store, time }),
    worker,

    /** The chatbot's rest-api deliveries, newest first; 404 as for the integration itself. */
    list: (workspaceId: string, chatbotId: string, filter: { status?: DeliveryStatus }, page: Page): PageOf<Delivery> =>
      log(integrations.restApi.get(workspaceId, chatbotId).id, filter, page),

    close,
  }
}

function view(row: StoredDelivery): Delivery {
  const { head, attempts, end } = deliveryLogParts(row)
  return { ...head, status: row.status, ...attempts, url: row.url, ...end }
}
