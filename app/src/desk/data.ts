import { api, query } from '../api.ts'
import type { ChatMessage, Chatbot, Conversation, Page } from '../types.ts'
import type { ListFilter } from './views.ts'

/** A row of the desk's list: the conversation and what the row shows about it. */
export interface ListItem extends Conversation {
  contact_name?: string | null
  last_message?: string | null
  waiting_since?: string | null
  assignee_id?: string | null
  unread?: boolean
}

export async function chatbots(): Promise<Chatbot[]> {
  return (await api<Page<Chatbot>>('GET', `/chatbots${query({ limit: 200 })}`)).items
}

const STATUSES: Record<ListFilter['view'], Conversation['status'][]> = {
  waiting: ['handoff'],
  mine: ['handoff'],
  open: ['handoff', 'bot'],
  bot: ['bot'],
  closed: ['closed'],
}

/**
 * The list for a view, built from each chatbot's conversations. Waiting is longest waiting
 * first; every other view most recently active first.
 */
export async function listConversations(filter: ListFilter, bots: Chatbot[]): Promise<{ items: ListItem[]; next_cursor: string | null }> {
  const chosen = filter.chatbot_id ? bots.filter((bot) => bot.id === filter.chatbot_id) : bots
  const pages = await Promise.all(
    chosen.flatMap((bot) =>
      STATUSES[filter.view].map((status) =>
        api<Page<Conversation>>('GET', `/chatbots/${bot.id}/conversations${query({ status, channel: filter.channel, limit: 200 })}`),
      ),
    ),
  )
  const items: ListItem[] = pages.flatMap((page) => page.items).map((item) => ({ ...item, waiting_since: item.status === 'handoff' ? (item.updated_at ?? item.created_at) : null }))
  if (filter.view === 'waiting') items.sort((a, b) => (a.waiting_since ?? '').localeCompare(b.waiting_since ?? ''))
  else items.sort((a, b) => b.last_message_at.localeCompare(a.last_message_at))
  return { items, next_cursor: null }
}

export async function conversation(chatbotId: string, id: string): Promise<Conversation> {
  return await api<Conversation>('GET', `/chatbots/${chatbotId}/conversations/${id}`)
}

/** The whole history, oldest first, page by page. */
export async function messages(chatbotId: string, id: string): Promise<ChatMessage[]> {
  const all: ChatMessage[] = []
  for (let offset = 0; ; offset += 200) {
    const page = await api<Page<ChatMessage> & { total: number }>('GET', `/chatbots/${chatbotId}/conversations/${id}/messages${query({ limit: 200, offset })}`)
    all.push(...page.items)
    if (page.items.length < 200) return all
  }
}

export async function reply(chatbotId: string, id: string, text: string, author: string): Promise<ChatMessage> {
  return await api<ChatMessage>('POST', `/chatbots/${chatbotId}/conversations/${id}/messages`, { text, author })
}

export async function setStatus(chatbotId: string, id: string, status: Conversation['status']): Promise<Conversation> {
  return await api<Conversation>('PATCH', `/chatbots/${chatbotId}/conversations/${id}`, { status })
}

export async function typing(chatbotId: string, id: string, active: boolean): Promise<void> {
  await api('POST', `/chatbots/${chatbotId}/conversations/${id}/typing`, { active })
}
