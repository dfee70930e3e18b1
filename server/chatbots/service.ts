import { invalidField, notFound } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { newId } from '../support/new-id.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import type { Chatbot, CreateChatbot, UpdateChatbot } from './model.ts'
import type { StoredLlmSettings } from '../llm/stored-llm-settings.ts'
import { nextLlmSettings, readLlmSettings, showLlmSettings } from './model-settings.ts'
import type { ChatbotStore, StoredChatbot } from './store.ts'

/** What kind of flow an id names within a chatbot, if any; answered by the flows domain. */
export type FlowKindLookup = (chatbotId: string, flowId: string) => Promise<'conversation' | 'meta' | undefined>

export interface ChatbotServiceDeps {
  store: ChatbotStore
  now: Clock
  events: EventBus
  flowKind: FlowKindLookup
  outbound: Pick<OutboundUrlPolicy, 'checkOutboundUrl'>
}

export type ChatbotService = ReturnType<typeof chatbotService>

export function chatbotService({ store, now, events, flowKind, outbound }: ChatbotServiceDeps) {
  // The store keeps rows it read: a deleted flow clears its chatbot's entry_flow_id behind it.
  events.on('flow.removed', store.forgetCached)
  events.on('database.rolled_back', store.forgetCached)
  function stored(workspaceId: string, id: string): StoredChatbot {
    const bot = store.get(workspaceId, id)
    if (!bot) throw notFound('chatbot')
    return bot
  }

  const view = (bot: StoredChatbot): Chatbot => ({ ...bot, llm: showLlmSettings(bot.llm) })
  const get = (workspaceId: string, id: string): Chatbot => view(stored(workspaceId, id))

  return {
    get,
    list(workspaceId: string, page: Page): PageOf<Chatbot> {
      const { items, total } = store.list(workspaceId, page)
      return { items: items.map(view), total }
    },

    /** The chatbot's model settings with the api key in clear, for the agent runner only. */
    modelSettings: (workspaceId: string, id: string): StoredLlmSettings | null => readLlmSettings(stored(workspaceId, id).llm),

    create(workspaceId: string, input: CreateChatbot): Chatbot {
      const bot: StoredChatbot = { id: newId(), name: input.name, entry_flow_id: null, llm: null, created_at: now(), updated_at: null }
      store.insert({ ...bot, workspace_id: workspaceId })
      return view(bot)
    },

    async update(workspaceId: string, id: string, input: UpdateChatbot): Promise<Chatbot> {
      const kind = input.entry_flow_id ? await flowKind(id, input.entry_flow_id) : undefined
      // Read after the await (the row as it is now), and before the kind is judged: an unknown chatbot is a 404.
      const current = stored(workspaceId, id)
      if (input.entry_flow_id) {
        if (!kind) throw invalidField('/entry_flow_id', 'names no flow of this chatbot')
        if (kind !== 'conversation') throw invalidField('/entry_flow_id', 'must name a conversation flow')
      }
      const next: StoredChatbot = {
        ...current,
        name: input.name ?? current.name,
        entry_flow_id: input.entry_flow_id === undefined ? current.entry_flow_id : input.entry_flow_id,
        llm: input.llm === undefined ? current.llm : nextLlmSettings(input.llm, current.llm, outbound),
        updated_at: now(),
      }
      const updated = store.update(workspaceId, next) ?? next
      events.emit('chatbot.changed', { workspaceId, chatbotId: id })
      return view(updated)
    },

    remove(workspaceId: string, id: string): void {
      if (!store.remove(workspaceId, id)) throw notFound('chatbot')
      events.emit('chatbot.removed', { workspaceId, chatbotId: id })
    },
  }
}
