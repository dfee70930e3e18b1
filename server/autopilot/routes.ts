import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams, PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { ConversationParams } from '../conversations/model.ts'
import { ChatbotUsage, TraceList } from './model.ts'
import type { RunInsight } from './run-insight.ts'

const tags = ['Agent states']

export function autopilotRoutes(auth: Authenticate, insight: RunInsight) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id' })
    .use(auth)
    .get('/conversations/:conversation_id/trace', ({ workspaceId, params, query }) => insight.trace(workspaceId, params.chatbot_id, params.conversation_id, query), {
      params: ConversationParams,
      query: PageQuery,
      response: { 200: TraceList, ...errorResponses(404, 422) },
      detail: {
        tags,
        summary: "A conversation's agent trace (internal)",
        description:
          'Every model call, tool call and exit of the LLM agent states, and each run\'s end, oldest first, with the conversation\'s token usage. ' +
          'Internal entries (`internal: true`): for the team only, never sent to the visitor, a webhook or the messaging app.',
      },
    })
    .get('/usage', ({ workspaceId, params, query }) => insight.usage(workspaceId, params.chatbot_id, query), {
      params: ChatbotParams,
      query: PageQuery,
      response: { 200: ChatbotUsage, ...errorResponses(404, 422) },
      detail: { tags, summary: "A chatbot's LLM token usage", description: 'Totals over its finished agent runs, and per conversation.' },
    })
}
