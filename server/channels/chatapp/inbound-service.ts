import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import type { AttachmentService, PreparedAttachment } from '../../attachments/service.ts'
import type { StoredConversation } from '../../conversations/conversation-store.ts'
import type { ChannelContext, ConversationService } from '../../conversations/service.ts'
import type { VisitorService } from '../../conversations/visitor-service.ts'
import type { WriteBatcher } from '../../db/write-batcher.ts'
import { ApiError, unprocessable } from '../../http/api-error.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { ChatappChannel } from '../../integrations/channel-lookups.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import type { Clock } from '../../support/clock.ts'
import type { Logger } from '../../support/logger.ts'
import { normalizePhoneNumber } from '../../support/phone-number.ts'
import type { ChatappStore } from './chatapp-store.ts'
import { type InboundContent, type InboundMedia, readInboundMessage } from './inbound-content.ts'
import { mapConcurrently } from './map-concurrently.ts'
import type { DownloadedMedia, MediaDownloader } from './media-download.ts'
import type { MetaFlowView } from './meta-flow-message.ts'
import { readFlowToken } from './meta-flow-message.ts'
import type { ChatappInbound, WebhookSummary } from './model.ts'
import { offeredPick } from './reply-ids.ts'
import { isoOf, type MessageEvent, readWebhook, type StatusEvent } from './read-webhook.ts'

interface Deps {
  integrations: Pick<IntegrationService, 'chatapp'>
  visitors: VisitorService
  conversations: ConversationService
  store: ChatappStore
  batch: WriteBatcher
  now: Clock
  logger: Logger
  metaFlow: (workspaceId: string, chatbotId: string, flowId: string) => MetaFlowView | null
  attachments: AttachmentService
  downloadMedia: MediaDownloader
}

export type ChatappInboundService = ReturnType<typeof chatappInbound>

/** The key of the messaging app's profile name among a contact's details. */
export const PROFILE_NAME_KEY = 'profile_name'

/**
 * What the provider delivers to a chatapp integration: each user message stored once per
 * provider message id (its webhooks are retried) in the sender's conversation, which the bot
 * then answers; each status report stored against the message it is about.
 */
export function chatappInbound({ integrations, visitors, conversations, store, batch, now, logger, metaFlow, attachments, downloadMedia }: Deps) {
  /** Messages whose file is being fetched, until their webhook is done: a retry of one waits for it, then finds it stored. */
  const inFlight = new Map<string, Promise<void>>()
  /** Aborted by close(): downloads stop at once and their webhooks are answered 503, to be sent again. */
  const shutdown = new AbortController()
  const download = (media: InboundMedia, integration: ChatappChannel) => downloadMedia(media.id, integration.accessToken, shutdown.signal)

  /** `file`: this message's downloaded file, fetched by its webhook; none when another webhook fetches it or there is no file. */
  async function receiveMessage(integration: ChatappChannel, event: MessageEvent, summary: WebhookSummary, file: DownloadedMedia | undefined, own: ReadonlySet<string>): Promise<void> {
    const key = inFlightKey(integration, event)
    const earlier = own.has(key) ? undefined : inFlight.get(key)
    if (earlier) await earlier
    if (store.findInbound(integration.integrationId, event.message.id)) {
      summary.messages.duplicates++
      return
    }
    const read = readInboundMessage(event.message)
    const { media } = read
    if (!media || !phoneOf(event.message.from)) return storeMessage(integration, event, read, summary, null)
    // Without its own download: the webhook that was fetching it gave up (a shutdown) or failed.
    const downloaded = file ?? (await download(media, integration))
    if (!downloaded.ok && downloaded.interrupted) throw stopping()
    if (!downloaded.ok) logger.warn('chatapp media kept as text: not downloaded', { integration_id: integration.integrationId, wamid: event.message.id, reason: downloaded.reason })
    storeMessage(integration, event, read, summary, downloaded.ok ? { media, bytes: downloaded.bytes } : null)
  }

  /**
   * The files of a webhook's messages, fetched together (at most DOWNLOADS_AT_ONCE at a time)
   * rather than one after the other, so the provider's wait is the slowest file's, not the
   * sum. Each message claimed here is in `inFlight` until `release` runs.
   */
  function startDownloads(integration: ChatappChannel, events: readonly MessageEvent[]) {
    const claimed = new Map<string, () => void>()
    const fetching: { event: MessageEvent; media: InboundMedia }[] = []
    for (const event of events) {
      const { media } = readInboundMessage(event.message)
      const key = inFlightKey(integration, event)
      if (!media || !phoneOf(event.message.from) || claimed.has(key) || inFlight.has(key)) continue
      if (store.findInbound(integration.integrationId, event.message.id)) continue
      const { promise, resolve } = Promise.withResolvers<void>()
      inFlight.set(key, promise)
      claimed.set(key, resolve)
      fetching.push({ event, media })
    }
    const files = mapConcurrently(fetching, DOWNLOADS_AT_ONCE, ({ media }) => download(media, integration)).then(
      (downloaded) => new Map(fetching.map(({ event }, index) => [event, downloaded[index] as DownloadedMedia])),
    )
    return {
      files,
      own: new Set(claimed.keys()),
      release() {
        for (const [key, resolve] of claimed) {
          inFlight.delete(key)
          resolve()
        }
      },
    }
  }

  /** The file as an attachment of `conversationId` (null: the message opens one), or null with the reason logged when it is refused. */
  function prepareFile(integration: ChatappChannel, wamid: string, file: { media: InboundMedia; bytes: Uint8Array }, conversationId: string | null): PreparedAttachment | null {
    const { media } = file
    try {
      const prepared = attachments.prepare({
        workspaceId: integration.workspaceId,
        chatbotId: integration.chatbotId,
        conversationId,
        role: 'visitor',
        filename: media.filename ?? media.type,
        bytes: file.bytes,
      })
      // A picture without a name reads as its caption, as it did before files were kept: `[image] caption`.
      if (!media.filename && media.caption) {
        const { filename: _, ...shown } = prepared.content.media
        prepared.content.media = { ...shown, caption: media.caption }
      } else if (media.caption) prepared.content.media.caption = media.caption
      return prepared
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      logger.warn('chatapp media kept as text: refused', { integration_id: integration.integrationId, wamid, reason: error.detail })
      return null
    }
  }

  /** `read` is the message as readInboundMessage made it; `file`, its media once downloaded. */
  function storeMessage(integration: ChatappChannel, event: MessageEvent, read: InboundContent, summary: WebhookSummary, file: { media: InboundMedia; bytes: Uint8Array } | null): void {
    const { message } = event
    const phone = phoneOf(message.from)
    if (!phone) return void summary.ignored.push({ path: `${event.path}/from`, reason: 'the sender is not a phone number Parley can answer' })

    const contact = visitors.ensureContact(integration.chatbotId, { externalId: phone, tokenHash: '' })
    if (event.profileName && contact.details[PROFILE_NAME_KEY] !== event.profileName) {
      visitors.mergeDetails(contact.id, { [PROFILE_NAME_KEY]: event.profileName })
    }
    const formToken = read.formResponse ? readFlowToken(read.formResponse.flow_token) : null
    const answered = read.inReplyTo ? store.sentMessage(integration.integrationId, read.inReplyTo) : undefined
    let content = read.content
    if (content.kind === 'reply' && answered && (answered.content.kind === 'buttons' || answered.content.kind === 'list')) {
      // Read against the message it answers: its buttons stay buttons when shown as a list.
      content = { kind: 'reply', ...(offeredPick(answered.content, content.id) ?? content) }
    }
    if (formToken && content.kind === 'text') {
      const name = metaFlow(integration.workspaceId, integration.chatbotId, formToken.flowId)?.name
      if (name) content = { kind: 'text', text: content.text.replace(/^\[form\]/, `[form ${name}]`) }
    }

    const ctx: ChannelContext = { chatbotId: integration.chatbotId, channel: 'chatapp', integrationId: integration.integrationId, defaultCountry: countryOf(phone) }
    const conversation = read.notAnAnswer
      ? reactedConversation(integration, contact.id, read.inReplyTo)
      : store.latestConversation(contact.id, integration.integrationId, true)
    const prepared = file ? prepareFile(integration, message.id, file, conversation?.id ?? null) : null
    if (prepared) content = prepared.content
    const said = { clientId: message.id, content, notAnAnswer: read.notAnAnswer }
    // A first message opens the conversation; it answers only what the first state listens for, as on every channel.
    const { conversation: target, message: stored, duplicate } = conversation
      ? { conversation, ...conversations.visitorSays(conversation, said, ctx) }
      : conversations.openWith(ctx, contact.id, null, said)
    if (duplicate) {
      summary.messages.duplicates++
      return
    }
    prepared?.write(target.id)
    batch.run(() =>
      store.insertInbound({
        integration_id: integration.integrationId,
        wamid: message.id,
        chatbot_id: integration.chatbotId,
        conversation_id: target.id,
        message_id: stored.id,
        type: message.type,
        sender: phone,
        profile_name: event.profileName,
        payload: JSON.stringify(message),
        form_response: read.formResponse ? JSON.stringify(read.formResponse) : null,
        sent_at: isoOf(message.timestamp),
        received_at: now(),
      }),
    )
    summary.messages.stored++
  }

  /** A reaction belongs with the message it reacts to, else with the latest conversation, closed or not. */
  function reactedConversation(integration: ChatappChannel, contactId: string, wamid: string | null): StoredConversation | undefined {
    const conversationId = wamid
      ? (store.sentMessage(integration.integrationId, wamid)?.conversationId ?? store.findInbound(integration.integrationId, wamid)?.conversation_id)
      : undefined
    const reacted = conversationId ? store.conversation(conversationId) : undefined
    if (reacted?.contact_id === contactId) return reacted
    return store.latestConversation(contactId, integration.integrationId, false)
  }

  function receiveStatus(integration: ChatappChannel, event: StatusEvent, summary: WebhookSummary): void {
    let recorded = false
    batch.run(() => {
      recorded = store.insertStatus({
        integration_id: integration.integrationId,
        wamid: event.wamid,
        status: event.status,
        chatbot_id: integration.chatbotId,
        at: event.at ?? now(),
        errors: event.errors ? JSON.stringify(event.errors) : null,
        received_at: now(),
      })
    })
    if (!recorded) return void summary.statuses.duplicates++
    summary.statuses.recorded++
    if (!store.sentByUs(integration.integrationId, event.wamid)) summary.statuses.unmatched++
    if (event.status === 'failed') {
      logger.warn('chatapp message failed at the provider', { integration_id: integration.integrationId, wamid: event.wamid, errors: event.errors })
    }
  }

  return {
    /**
     * One webhook body, already authenticated: every part is handled or reported as ignored,
     * so the provider gets its 200 and does not retry what Parley cannot use.
     */
    async receive(integration: ChatappChannel, body: unknown): Promise<WebhookSummary> {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw unprocessable('validation_failed', 'the body must be the provider\'s webhook payload: a JSON object with "object" and "entry"', [
          { path: '', message: 'must be a JSON object' },
        ])
      }
      if (shutdown.signal.aborted) throw stopping()
      const summary: WebhookSummary = { messages: { stored: 0, duplicates: 0 }, statuses: { recorded: 0, duplicates: 0, unmatched: 0 }, ignored: [] }
      const events = [...readWebhook(body)]
      const ours = (event: (typeof events)[number]) => event.kind !== 'ignored' && event.phoneNumberId === integration.phoneNumberId
      const downloads = startDownloads(integration, events.filter((event): event is MessageEvent => event.kind === 'message' && ours(event)))
      try {
        // Every file is in before anything is stored: a shutdown meanwhile leaves nothing of the webhook half-stored.
        const files = await downloads.files
        if ([...files.values()].some((downloaded) => !downloaded.ok && downloaded.interrupted)) throw stopping()
        // Then stored one by one in the webhook's order, which is the order the user wrote them in.
        for (const event of events) {
          if (event.kind === 'ignored') summary.ignored.push({ path: event.path, reason: event.reason })
          else if (!ours(event)) {
            summary.ignored.push({
              path: event.path,
              reason: `it is for the business number ${JSON.stringify(event.phoneNumberId)}, not this integration's phone_number_id`,
            })
          } else if (event.kind === 'message') await receiveMessage(integration, event, summary, files.get(event), downloads.own)
          else receiveStatus(integration, event, summary)
        }
      } finally {
        downloads.release()
      }
      return summary
    },

    /** At shutdown: the downloads under way stop now, and their webhooks are answered 503 so the provider sends them again. */
    close(): void {
      shutdown.abort()
    },

    /** What the provider delivered to the chatbot's chatapp integration, newest first; 404 as for the integration. */
    async list(workspaceId: string, chatbotId: string, filter: { conversation_id?: string }, page: Page): Promise<PageOf<ChatappInbound>> {
      const integration = await integrations.chatapp.get(workspaceId, chatbotId)
      const found = store.inbound(integration.id, filter, page)
      return {
        total: found.total,
        items: found.items.map((row) => ({
          provider_message_id: row.wamid,
          conversation_id: row.conversation_id,
          message_id: row.message_id,
          type: row.type,
          from: row.sender,
          profile_name: row.profile_name,
          sent_at: row.sent_at,
          received_at: row.received_at,
          form_response: row.form_response ? (JSON.parse(row.form_response) as Record<string, unknown>) : null,
          payload: JSON.parse(row.payload) as unknown,
        })),
      }
    },
  }
}

/** The files of one webhook fetched at once: a few, so that one webhook does not crowd the provider or this host. */
const DOWNLOADS_AT_ONCE = 4

const inFlightKey = (integration: ChatappChannel, event: MessageEvent) => `${integration.integrationId} ${event.message.id}`

/**
 * Nothing of the webhook is stored; the provider sends a webhook again until it is answered
 * 2xx, and a message is stored once per provider message id, so it comes back after the restart.
 */
const stopping = () =>
  new ApiError(503, 'shutting_down', 'Parley is shutting down and stored nothing of this webhook; send it again', undefined, { 'retry-after': '5' })

/**
 * The sender's number in E.164: the same contact as a widget visitor identified with it. The
 * provider's wa_id is the number in international digits; when the phone library does not
 * know its range yet, the digits are taken as they are.
 */
export function phoneOf(waId: string): string | null {
  if (!/^\d{6,15}$/.test(waId)) return null
  return normalizePhoneNumber(`+${waId}`) ?? `+${waId}`
}

/** The country of a number, so that a local number the user types in a capture is read as theirs. */
function countryOf(phone: string): string | null {
  return parsePhoneNumberFromString(phone)?.country ?? null
}
