import { normalizeContactDetails, mergeContactDetails } from '../../conversations/contact-details.ts'
import type { StoredConversation } from '../../conversations/conversation-store.ts'
import type { ContactDetails } from '../../conversations/model.ts'
import type { RatingService } from '../../conversations/rating-service.ts'
import type { ReadService } from '../../conversations/read-service.ts'
import type { ChannelContext, ConversationService, VisitorInput, VisitorResult } from '../../conversations/service.ts'
import type { VisitorService } from '../../conversations/visitor-service.ts'
import { CloseCode } from '../../protocol/close-codes.ts'
import type { ClientMessage } from '../../protocol/widget-protocol.ts'
import type { EventBus } from '../../events/domain-events.ts'
import type { WidgetSocket } from './socket-data.ts'
import { contactKey, type SocketHub } from './socket-hub.ts'
import { send } from './send.ts'
import type { UploadTokens } from './upload-tokens.ts'

type Of<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>

const REFUSAL_CODES = {
  invalid_identity: CloseCode.invalidIdentity,
  identity_not_canonical: CloseCode.identityNotCanonical,
  identity_not_verified: CloseCode.identityNotVerified,
} as const

/** Whether a handed-off conversation's visitor is asked for an e-mail (outside business hours, none known yet). */
export type AskEmail = (conversation: { chatbot_id: string; contact_id: string }) => boolean

interface Deps {
  askEmail?: AskEmail
  visitors: VisitorService
  conversations: ConversationService
  ratings: RatingService
  reads: ReadService
  hub: SocketHub
  onWelcome?: (socket: WidgetSocket) => void
  events?: EventBus
  /** Each welcome gives the socket a new upload token. */
  uploads: UploadTokens
  /** PARLEY_ATTACHMENT_MAX_BYTES, told to the widget in its welcome. */
  uploadMaxBytes: number
}

/** What the server does with each kind of widget message, once it has passed the schema. */
export function visitorHandlers({ visitors, conversations, ratings, reads, hub, onWelcome, events, uploads, uploadMaxBytes, askEmail }: Deps) {
  const seen = (socket: WidgetSocket, contactId: string) =>
    events?.emit('visitor.seen', { contactId, pageUrl: socket.data.page, userAgent: socket.data.userAgent, address: socket.data.address })

  const context = (socket: WidgetSocket): ChannelContext => {
    const integration = socket.data.integration!
    return {
      chatbotId: integration.chatbotId,
      channel: 'web',
      integrationId: integration.integrationId,
      defaultCountry: integration.defaultCountry,
    }
  }

  function hello(socket: WidgetSocket, message: Of<'hello'>): void {
    if (socket.data.helloed) return socket.close(CloseCode.protocolError, 'hello was already sent')
    const integration = socket.data.integration!
    const visitor = visitors.resolve({
      chatbotId: integration.chatbotId,
      userId: message.user_id,
      userHash: message.user_hash,
      visitorToken: message.visitor_token,
      identitySecret: integration.identitySecret,
      defaultCountry: integration.defaultCountry,
    })
    if (!visitor.ok) {
      return socket.close(REFUSAL_CODES[visitor.refusal], visitor.reason)
    }
    const data = socket.data
    data.helloed = true
    if (data.helloTimer) clearTimeout(data.helloTimer)
    data.helloTimer = null
    data.tokenHash = visitor.tokenHash
    data.externalId = visitor.externalId
    data.contactId = visitor.contact?.id ?? null
    data.page = message.page_url ?? null
    data.locale = message.locale ?? null
    // A returning visitor whose browser now speaks another language: the contact follows.
    if (visitor.contact && data.locale) visitors.noteLocale(visitor.contact.id, data.locale)
    const key = visitor.contact
      ? contactKey(visitor.contact.id)
      : visitor.externalId
        ? `x:${integration.chatbotId}:${visitor.externalId}`
        : `t:${integration.chatbotId}:${visitor.tokenHash}`
    hub.setVisitor(socket, key)
    if (data.contactId) seen(socket, data.contactId)
    if (message.contact_details) contactDetails(socket, message.contact_details)

    const conversation = data.contactId ? conversations.latestOfContact(data.contactId, 'web') : undefined
    data.conversationId = conversation?.id ?? null
    const history = conversation ? conversations.history(conversation.id, message.after) : { messages: [], hasMore: false }
    send(socket, {
      type: 'welcome',
      visitor_token: visitor.visitorToken,
      conversation: conversation
        ? {
            id: conversation.id,
            status: conversation.status,
            rating: ratings.of(conversation.id),
            read_by_team: reads.of(conversation.id).team,
            ...(conversation.status === 'handoff' && askEmail?.(conversation) ? { ask_email: true as const } : {}),
          }
        : null,
      messages: history.messages,
      has_more: history.hasMore,
      upload_token: uploads.issue(socket),
      upload_max_bytes: uploadMaxBytes,
    })
    onWelcome?.(socket)
  }

  /** The visitor's running conversation, if any (a closed one is history). */
  function running(socket: WidgetSocket): StoredConversation | undefined {
    const current = socket.data.conversationId ? conversations.get(socket.data.conversationId) : undefined
    return current && current.status !== 'closed' ? current : undefined
  }

  /** The visitor's contact, made now if they had none; every tab of the visitor follows it. */
  function contactOf(socket: WidgetSocket): string {
    const data = socket.data
    const contact = visitors.ensureContact(data.integration!.chatbotId, { externalId: data.externalId, tokenHash: data.tokenHash }, data.locale)
    const known = data.contactId === contact.id
    hub.bindContact(data.visitorKey, contact.id)
    if (!known) seen(socket, contact.id)
    return contact.id
  }

  function follow(contactId: string, conversation: StoredConversation): void {
    for (const tab of hub.socketsOf(contactKey(contactId))) tab.data.conversationId = conversation.id
  }

  /** Opens a conversation unless one is running (the chat was opened). */
  function start(socket: WidgetSocket): void {
    if (running(socket)) return
    const contactId = contactOf(socket)
    // The page's contact details are not stored before the visitor speaks, but the greeting may use them.
    follow(contactId, conversations.open(context(socket), contactId, socket.data.integration!.greetingMessage, socket.data.pendingDetails ?? {}))
  }

  /** The visitor's text, pick or file: stored in their running conversation, or opening one. */
  function say(socket: WidgetSocket, clientId: string, content: VisitorInput['content']): VisitorResult {
    const data = socket.data
    const conversation = running(socket)
    if (!conversation) {
      // A message with no conversation running opens one; it answers only what the first state listens for.
      const contactId = contactOf(socket)
      const opened = conversations.openWith(context(socket), contactId, data.integration!.greetingMessage, { clientId, content }, data.pendingDetails ?? {})
      follow(contactId, opened.conversation)
      storePendingDetails(socket)
      if (opened.conversation.flow_id !== null) reads.mark(opened.conversation, 'team', opened.message.id)
      return opened
    }
    // The visitor speaks: what the page gave is stored now, before the bot answers with it.
    storePendingDetails(socket)
    // The bot reads what it answers; in a handoff the mark waits for an agent.
    const botReads = conversation.status === 'bot' && conversation.flow_id !== null
    const result = conversations.visitorSays(conversation, { clientId, content }, context(socket))
    if (botReads && !result.duplicate) reads.mark(conversation, 'team', result.message.id)
    // A resend after a reconnect: the first copy is confirmed to this tab only, not stored again.
    if (result.duplicate) send(socket, { type: 'message', message: result.message })
    return result
  }

  function storePendingDetails(socket: WidgetSocket): void {
    const data = socket.data
    if (!data.pendingDetails || !data.contactId) return
    warnOverLimit(socket, visitors.mergeDetails(data.contactId, data.pendingDetails))
    data.pendingDetails = null
  }

  /** Stored at once for a visitor who has spoken; otherwise kept until their first message. */
  function contactDetails(socket: WidgetSocket, raw: Record<string, unknown>): void {
    const { details, truncated } = normalizeContactDetails(raw)
    if (truncated.length > 0) {
      send(socket, { type: 'error', code: 'contact_details_truncated', message: `values cut to 300 characters: ${truncated.join(', ')}` })
    }
    const data = socket.data
    if (data.contactId && visitors.hasSpoken(data.contactId)) {
      warnOverLimit(socket, visitors.mergeDetails(data.contactId, details))
      return
    }
    const merged = mergeContactDetails(data.pendingDetails ?? {}, details)
    data.pendingDetails = merged.details as ContactDetails
    warnOverLimit(socket, merged.overLimit)
  }

  /** The visitor has seen their conversation up to a message: agents see how far. */
  function read(socket: WidgetSocket, upTo: string): void {
    const conversation = socket.data.conversationId ? conversations.get(socket.data.conversationId) : undefined
    if (!conversation || !reads.isMessageOf(conversation.id, upTo)) {
      return send(socket, { type: 'error', code: 'unknown_message', message: 'up_to is not a message of your conversation' })
    }
    reads.mark(conversation, 'visitor', upTo)
  }

  /** The end rating; every tab of the visitor learns it once it is stored. */
  function rate(socket: WidgetSocket, message: Of<'rate'>): void {
    const data = socket.data
    const outcome = ratings.rate(
      { conversationId: message.conversation_id, contactId: data.contactId, scale: data.integration!.widgetConfig.rating, score: message.score, comment: message.comment },
      (rating) => {
        if (data.contactId) hub.sendToContact(data.contactId, [{ type: 'rating', conversation_id: message.conversation_id, rating }])
      },
    )
    if (!outcome.ok) send(socket, { type: 'error', code: outcome.code, message: outcome.message })
  }

  function warnOverLimit(socket: WidgetSocket, keys: string[]): void {
    if (keys.length === 0) return
    send(socket, { type: 'error', code: 'contact_details_limit', message: `at most 13 fields; left out: ${keys.join(', ')}` })
  }

  function handle(socket: WidgetSocket, message: ClientMessage): void {
    if (message.type === 'hello') return hello(socket, message)
    if (!socket.data.helloed) return socket.close(CloseCode.protocolError, 'the first message must be hello')
    switch (message.type) {
      case 'start':
        start(socket)
        return
      case 'message':
        say(socket, message.client_id, { kind: 'text', text: message.text })
        return
      case 'reply':
        say(socket, message.client_id, { kind: 'reply', reply_to: message.reply_to, id: message.id, title: message.title })
        return
      case 'contact_details':
        return contactDetails(socket, message.details)
      case 'history': {
        const conversationId = socket.data.conversationId
        const older = conversationId ? conversations.olderThan(conversationId, message.before) : { messages: [], hasMore: false }
        return send(socket, { type: 'history', messages: older.messages, has_more: older.hasMore })
      }
      case 'typing': {
        const conversation = running(socket)
        if (conversation) events?.emit('visitor.typing', { conversation, active: message.active })
        return
      }
      case 'rate':
        return rate(socket, message)
      case 'read':
        return read(socket, message.up_to)
      case 'ping':
        return send(socket, { type: 'pong' })
    }
  }

  return {
    handle,
    say,
    /** The running conversation a file sent now would go in (null: it would open one). */
    runningConversationId: (socket: WidgetSocket): string | null => running(socket)?.id ?? null,
  }
}
