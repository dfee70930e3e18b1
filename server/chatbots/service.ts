import { invalidField, notFound } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../support/events.ts'
import { newId } from '../support/new-id.ts'
import type { Chatbot, CreateChatbot, UpdateChatbot } from './model.ts'
import type { ChatbotStore } from './store.ts'

/** What kind of flow an id names within a chatbot, if any; answered by the flows domain. */
export type FlowKindLookup = (chatbotId: string, flowId: string) => 'conversation' | 'meta' | undefined

export interface ChatbotServiceDeps {
  store: ChatbotStore
  now: Clock
  events: EventBus
  flowKind: FlowKindLookup
}

export type ChatbotService = ReturnType<typeof chatbotService>

export function chatbotService({ store, now, events, flowKind }: ChatbotServiceDeps) {
  function get(workspaceId: string, id: string): Chatbot {
    const bot = store.get(workspaceId, id)
    if (!bot) throw notFound('chatbot')
    return bot
  }

  return {
    get,
    list: (workspaceId: string, page: Page): PageOf<Chatbot> => store.list(workspaceId, page),

    create(workspaceId: string, input: CreateChatbot): Chatbot {
      const bot: Chatbot = { id: newId(), name: input.name, entry_flow_id: null, created_at: now(), updated_at: null }
      store.insert({ ...bot, workspace_id: workspaceId })
      return bot
    },

    update(workspaceId: string, id: string, input: UpdateChatbot): Chatbot {
      const current = get(workspaceId, id)
      if (input.entry_flow_id) {
        const kind = flowKind(id, input.entry_flow_id)
        if (!kind) throw invalidField('/entry_flow_id', 'names no flow of this chatbot')
        if (kind !== 'conversation') throw invalidField('/entry_flow_id', 'must name a conversation flow')
      }
      const next: Chatbot = {
        ...current,
        name: input.name ?? current.name,
        entry_flow_id: input.entry_flow_id === undefined ? current.entry_flow_id : input.entry_flow_id,
        updated_at: now(),
      }
      return store.update(workspaceId, next) ?? next
    },

    remove(workspaceId: string, id: string): void {
      if (!store.remove(workspaceId, id)) throw notFound('chatbot')
      events.emit('chatbot.removed', { workspaceId, chatbotId: id })
    },
  }
}
