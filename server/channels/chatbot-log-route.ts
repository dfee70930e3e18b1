import type { TSchema } from 'elysia'
import { ChatbotParams, type Page, type PageOf } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'

export interface ChatbotLogRoute<Query extends TSchema, List extends TSchema, Filter, Entry> {
  /** Paging and the log's filters. */
  query: Query
  list: List
  /** The log's reader; it answers 404 (by throwing) for a chatbot without the integration. */
  read: (workspaceId: string, chatbotId: string, filter: Filter, page: Page) => Promise<PageOf<Entry>>
  detail: { tags: string[]; summary: string; description: string }
}

/**
 * A GET that lists one of a chatbot's channel logs (deliveries out, messages in), newest first:
 * the handler and the route's schemas, to spread into `.get(path, ...)` of a group that
 * authenticates.
 */
export function chatbotLogRoute<Query extends TSchema, List extends TSchema, Filter, Entry>({ query, list, read, detail }: ChatbotLogRoute<Query, List, Filter, Entry>) {
  const handler = ({ workspaceId, params, query }: { workspaceId: string; params: { chatbot_id: string }; query: Page & Filter }) => {
    const { limit, offset, ...filter } = query
    return read(workspaceId, params.chatbot_id, filter as Filter, { limit, offset })
  }
  return [handler, { params: ChatbotParams, query, response: { 200: list, ...errorResponses(404, 422) }, detail }] as const
}
