import type { AskEmail } from './visitor-handlers.ts'
import type { AttachmentService } from '../../attachments/service.ts'
import type { RatingService } from '../../conversations/rating-service.ts'
import type { ReadService } from '../../conversations/read-service.ts'
import type { ConversationService } from '../../conversations/service.ts'
import type { VisitorService } from '../../conversations/visitor-service.ts'
import { CloseCode } from '../../protocol/close-codes.ts'
import type { EventBus } from '../../events/domain-events.ts'
import type { Logger } from '../../support/logger.ts'
import type { TeamPageCheck } from './admit-widget.ts'
import { type DraftRelayTuning, draftRelay } from './draft-relay.ts'
import { SocketHub } from './socket-hub.ts'
import { webUploads } from './upload-service.ts'
import { uploadTokens } from './upload-tokens.ts'
import type { FindWebIntegration } from './web-directory.ts'
import { widgetSocket } from './widget-socket.ts'

export interface WebChannelDeps extends DraftRelayTuning {
  /** Outside business hours a handed-off visitor is asked for an e-mail (app.ts decides). */
  askEmail?: AskEmail
  findIntegration: FindWebIntegration
  visitors: VisitorService
  conversations: ConversationService
  ratings: RatingService
  reads: ReadService
  events: EventBus
  logger: Logger
  ratePerMinute: number
  helloTimeoutMs?: number
  /** Where visitors' files go (checked, stored, served). */
  attachments: AttachmentService
  /** How long a closed socket's upload token still works (tests shorten it). */
  uploadGraceMs?: number
  /** The team's own pages (the console's preview) are admitted where allowed_domains leave Parley out. */
  isTeamPage?: TeamPageCheck
}

/**
 * The web widget as a channel: its socket, and the deliveries the rest of Parley asks for
 * through events (new messages, status changes, agents typing, the bot's answer as it is
 * written, integrations going away).
 */
export function webChannel(deps: WebChannelDeps) {
  const hub = new SocketHub()
  const drafts = draftRelay(hub, deps)
  const tokens = uploadTokens({ graceMs: deps.uploadGraceMs })
  const socket = widgetSocket({ ...deps, hub, onWelcome: drafts.resume, uploads: tokens, uploadMaxBytes: deps.attachments.maxBytes })
  const uploads = webUploads({ findIntegration: deps.findIntegration, tokens, attachments: deps.attachments, say: socket.say, runningConversationId: socket.runningConversationId })
  const { events } = deps

  const unsubscribe = [
    events.on('conversation.messages', ({ conversation, messages }) => {
      if (conversation.channel !== 'web') return
      drafts.stored(conversation, messages)
      hub.sendToContact(
        conversation.contact_id,
        messages.map((message) => ({ type: 'message', message })),
        (tab) => {
          tab.data.conversationId = conversation.id
        },
      )
    }),
    events.on('conversation.status', ({ conversation, status }) => {
      if (conversation.channel !== 'web') return
      const askEmail = status === 'handoff' && deps.askEmail?.(conversation) ? { ask_email: true as const } : {}
      hub.sendToContact(conversation.contact_id, [{ type: 'status', conversation_id: conversation.id, status, ...askEmail }])
    }),
    events.on('conversation.typing', ({ conversation, active, from }) => {
      if (conversation.channel !== 'web') return
      if (from === 'bot') drafts.botTyping(conversation, active)
      hub.sendToContact(conversation.contact_id, [{ type: 'typing', from, active }])
    }),
    events.on('conversation.draft', ({ conversation, message_id, phase, text }) => {
      if (conversation.channel !== 'web') return
      drafts.draft(conversation, message_id, phase, text)
    }),
    events.on('conversation.read', ({ conversation, reader, up_to, at }) => {
      // The visitor sees when the team has read them; their own mark is for agents.
      if (conversation.channel !== 'web' || reader !== 'team') return
      hub.sendToContact(conversation.contact_id, [{ type: 'read', conversation_id: conversation.id, up_to, at }])
    }),
    events.on('integration.removed', ({ integrationId }) => {
      hub.closeIntegration(integrationId, CloseCode.integrationRemoved, 'this chat was removed')
    }),
    events.on('integration.changed', ({ integrationId, isActive }) => {
      if (!isActive) hub.closeIntegration(integrationId, CloseCode.integrationRemoved, 'this chat was switched off')
    }),
    events.on('chatbot.removed', ({ chatbotId }) => {
      hub.closeChatbot(chatbotId, CloseCode.integrationRemoved, 'this chat was removed')
    }),
  ]

  return {
    socket,
    hub,
    uploads,
    close() {
      for (const off of unsubscribe) off()
      tokens.close()
      drafts.close()
      hub.closeAll(CloseCode.goingAway, 'server shutting down')
    },
  }
}
