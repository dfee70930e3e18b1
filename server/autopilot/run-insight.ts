import type { ChatbotService } from '../chatbots/service.ts'
import type { ConversationStore } from '../conversations/conversation-store.ts'
import { notFound } from '../http/api-error.ts'
import type { Page } from '../http/common-model.ts'
import type { ChatbotUsage, TraceEntry, TraceList } from './model.ts'
import type { RunStore } from './run-store.ts'

interface Deps {
  chatbots: Pick<ChatbotService, 'get'>
  conversations: Pick<ConversationStore, 'getInChatbot'>
  stores: { agentRuns: RunStore }
}

export type RunInsight = ReturnType<typeof runInsight>

/** What the team sees of the agent runs: a conversation's trace, and token usage. Scoped to the workspace. */
export function runInsight({ chatbots, conversations, stores }: Deps) {
  const store = stores.agentRuns
  return {
    async trace(workspaceId: string, chatbotId: string, conversationId: string, page: Page): Promise<TraceList> {
      chatbots.get(workspaceId, chatbotId)
      if (!conversations.getInChatbot(chatbotId, conversationId)) throw notFound('conversation')
      const [{ items, total }, usage] = await Promise.all([store.trace(conversationId, page), store.totalsOfConversation(chatbotId, conversationId)])
      const entries = items.map(
        (row): TraceEntry => ({
          id: row.id,
          run_id: row.run_id,
          internal: true,
          kind: row.kind as TraceEntry['kind'],
          detail: JSON.parse(row.detail) as Record<string, unknown>,
          created_at: row.created_at,
        }),
      )
      return { items: entries, total, usage }
    },

    async usage(workspaceId: string, chatbotId: string, page: Page): Promise<ChatbotUsage> {
      chatbots.get(workspaceId, chatbotId)
      const [totals, conversations] = await Promise.all([store.chatbotTotals(chatbotId), store.conversationTotals(chatbotId, page)])
      return { chatbot_id: chatbotId, ...totals, conversations }
    },
  }
}
