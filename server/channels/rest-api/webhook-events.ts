import type { StoredConversation } from '../../conversations/conversation-store.ts'
import type { Message } from '../../conversations/model.ts'
import type { ConversationStatus } from '../../protocol/widget-protocol.ts'
import type { WebhookEvent } from './model.ts'
import { userIdOf } from './user-id.ts'

interface Subject {
  conversation: StoredConversation
  integrationId: string
  contact: { id: string; external_id: string | null }
}

function about({ conversation, integrationId, contact }: Subject) {
  return {
    chatbot_id: conversation.chatbot_id,
    integration_id: integrationId,
    conversation_id: conversation.id,
    contact: { id: contact.id, external_id: contact.external_id, user_id: userIdOf(contact.external_id) },
  }
}

/** A bot's or agent's message, as the receiver gets it. */
export function messageCreated(subject: Subject, message: Message): WebhookEvent {
  return { type: 'message.created', timestamp: message.created_at, data: { ...about(subject), message } }
}

/** A handoff, a close, or a hand-back to the bot. */
export function statusChanged(subject: Subject, status: ConversationStatus, previous: ConversationStatus, at: string): WebhookEvent {
  return { type: 'conversation.status_changed', timestamp: at, data: { ...about(subject), status, previous_status: previous } }
}
