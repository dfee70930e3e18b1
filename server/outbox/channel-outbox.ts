import type { EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { type OutboxTime, systemOutboxTime } from './outbox-time.ts'
import type { DeliveryKind } from './outbox-store.ts'
import { DEFAULT_REQUEST_TIMEOUT_MS, type DeliverySender, type DeliveryTarget, type OutboxSeam, outboxWorker, type OutboxTuning } from './outbox-worker.ts'

export const INTEGRATION_DELETED = 'the integration was deleted'
export const INTEGRATION_SWITCHED_OFF = 'the integration was switched off (is_active: false)'

/** What a channel's sender is made with: the SSRF policy, the clock, one attempt's time limit. */
export interface SenderOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  time: OutboxTime
  timeoutMs: number
  ca?: string
}

export interface ChannelOutboxDeps<Integration extends { isActive: boolean }> {
  /** The channel, as conversations and integrations name it. */
  channel: 'rest-api' | 'chatapp'
  /** The outbox rows it sends. */
  kind: DeliveryKind
  /** The conversation events after which it may have deliveries to send. */
  wakeOn: ReadonlyArray<'conversation.messages' | 'conversation.status'>
  findIntegration: (integrationId: string) => Promise<Integration | null>
  /** Where an active integration's deliveries go now (read at every attempt), or why they cannot. */
  address: (integration: Integration) => DeliveryTarget
  sender: (options: SenderOptions) => DeliverySender
  /** The worker's claims behind the store seam. */
  claims: OutboxSeam
  events: EventBus
  outbound: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  logger: Logger
  tuning?: OutboxTuning & { ca?: string }
}

/**
 * What the channels that deliver through the outbox (rest-api webhooks, chatapp provider
 * calls) share: the worker that sends their kind of delivery to where the integration points
 * now, woken by their conversations' events, and an integration deleted or switched off
 * failing what it still has pending.
 */
export function channelOutbox<Integration extends { isActive: boolean }>(deps: ChannelOutboxDeps<Integration>) {
  const { channel, kind, findIntegration, address, claims, events, outbound, logger, tuning = {} } = deps
  const time = tuning.time ?? systemOutboxTime

  async function target(integrationId: string): Promise<DeliveryTarget> {
    const integration = await findIntegration(integrationId)
    if (!integration) return { ok: false, reason: INTEGRATION_DELETED }
    if (!integration.isActive) return { ok: false, reason: INTEGRATION_SWITCHED_OFF }
    return address(integration)
  }

  const worker = outboxWorker({
    ...tuning,
    kind,
    time,
    claims,
    logger,
    events,
    target,
    send: deps.sender({ policy: outbound, time, timeoutMs: tuning.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, ca: tuning.ca }),
  })

  const wake = ({ conversation }: { conversation: { channel: string } }) => {
    if (conversation.channel === channel) worker.wake()
  }
  const unsubscribe = [
    ...deps.wakeOn.map((name) => events.on(name, wake)),
    events.on('integration.removed', ({ integrationId, type }) => {
      if (type === channel) void worker.dropIntegration(integrationId, INTEGRATION_DELETED)
    }),
    events.on('integration.changed', ({ integrationId, type, isActive }) => {
      if (type === channel && !isActive) void worker.dropIntegration(integrationId, INTEGRATION_SWITCHED_OFF)
    }),
  ]
  worker.start()

  return {
    worker,
    time,
    async close(): Promise<void> {
      for (const off of unsubscribe) off()
      await worker.close()
    },
  }
}
