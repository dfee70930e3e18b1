import type { ChatbotService } from '../chatbots/service.ts'
import { invalidField, notFound } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { ContactStore } from './contact-store.ts'
import type { ConversationFilter, ConversationStore, StoredConversation } from './conversation-store.ts'
import type { MessageStore } from './message-store.ts'
import type { RatingService } from './rating-service.ts'
import type { ReadService } from './read-service.ts'
import type { Conversation, ConversationPatch, ConversationReads, ConversationWithContact, Message } from './model.ts'
import type { ConversationService } from './service.ts'

interface Deps {
  chatbots: ChatbotService
  conversations: ConversationStore
  contacts: ContactStore
  messages: MessageStore
  lifecycle: ConversationService
  ratings: RatingService
  reads: ReadService
  events: EventBus
}

export type AgentService = ReturnType<typeof agentService>

/** The conversations API for agents and dashboards, scoped to a workspace's chatbot. */
export function agentService({ chatbots, conversations, contacts, messages, lifecycle, ratings, reads, events }: Deps) {
  function find(workspaceId: string, chatbotId: string, conversationId: string): StoredConversation {
    chatbots.get(workspaceId, chatbotId)
    const conversation = conversations.getInChatbot(chatbotId, conversationId)
    if (!conversation) throw notFound('conversation')
    return conversation
  }

  return {
    list(workspaceId: string, chatbotId: string, filter: ConversationFilter, page: Page): PageOf<Conversation> {
      chatbots.get(workspaceId, chatbotId)
      return conversations.list(chatbotId, filter, page)
    },

    get(workspaceId: string, chatbotId: string, conversationId: string): ConversationWithContact {
      const conversation = find(workspaceId, chatbotId, conversationId)
      const contact = contacts.get(conversation.contact_id)
      if (!contact) throw notFound('contact')
      const { chatbot_id: _, first_message_at: __, ...shown } = contact
      return { ...publicView(conversation), contact: shown, rating: ratings.of(conversation.id) ?? null, reads: reads.of(conversation.id) }
    },

    messages(workspaceId: string, chatbotId: string, conversationId: string, page: Page): PageOf<Message> {
      find(workspaceId, chatbotId, conversationId)
      return messages.list(conversationId, page)
    },

    post(workspaceId: string, chatbotId: string, conversationId: string, text: string, author?: string, authorAvatarUrl?: string): Message {
      return lifecycle.agentSays(find(workspaceId, chatbotId, conversationId), text, author, authorAvatarUrl)
    },

    patch(workspaceId: string, chatbotId: string, conversationId: string, patch: ConversationPatch): Conversation {
      const conversation = find(workspaceId, chatbotId, conversationId)
      const updated = lifecycle.setStatus(conversation, patch.status, {
        chatbotId,
        channel: conversation.channel,
        integrationId: conversation.integration_id,
      })
      return publicView(updated)
    },

    /**
     * An agent has read the conversation up to a message (by default its newest): the visitor
     * sees "Seen" on their messages up to there. A mark never moves back.
     */
    read(workspaceId: string, chatbotId: string, conversationId: string, upTo?: string): ConversationReads {
      const conversation = find(workspaceId, chatbotId, conversationId)
      const target = upTo ?? reads.newest(conversation.id)
      if (upTo !== undefined && !reads.isMessageOf(conversation.id, upTo)) throw invalidField('/up_to', 'is not a message of this conversation')
      if (target) reads.mark(conversation, 'team', target)
      return reads.of(conversation.id)
    },

    typing(workspaceId: string, chatbotId: string, conversationId: string, active: boolean): void {
      events.emit('conversation.typing', { conversation: find(workspaceId, chatbotId, conversationId), active, from: 'agent' })
    },
  }
}

function publicView(conversation: StoredConversation): Conversation {
  const { state: _, ...shown } = conversation
  return shown
}
