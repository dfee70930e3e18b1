import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams, PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { Chatbot, ChatbotList, CreateChatbot, UpdateChatbot } from './model.ts'
import type { ChatbotService } from './service.ts'

const tags = ['Chatbots']

export function chatbotRoutes(auth: Authenticate, chatbots: ChatbotService) {
  return new Elysia({ prefix: '/chatbots' })
    .use(auth)
    .get('/', ({ workspaceId, query }) => chatbots.list(workspaceId, query), {
      query: PageQuery,
      response: { 200: ChatbotList, ...errorResponses(422) },
      detail: { tags, summary: 'List chatbots', description: 'Newest first.' },
    })
    .post('/', ({ workspaceId, body, status }) => status(201, chatbots.create(workspaceId, body)), {
      body: CreateChatbot,
      response: { 201: Chatbot, ...errorResponses(400, 413, 415, 422) },
      detail: { tags, summary: 'Create a chatbot' },
    })
    .get('/:chatbot_id', ({ workspaceId, params }) => chatbots.get(workspaceId, params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: Chatbot, ...errorResponses(404) },
      detail: { tags, summary: 'Get a chatbot' },
    })
    .patch('/:chatbot_id', ({ workspaceId, params, body }) => chatbots.update(workspaceId, params.chatbot_id, body), {
      params: ChatbotParams,
      body: UpdateChatbot,
      response: { 200: Chatbot, ...errorResponses(400, 404, 413, 415, 422) },
      detail: { tags, summary: 'Update a chatbot', description: 'Partial: only the fields sent change.' },
    })
    .delete(
      '/:chatbot_id',
      ({ workspaceId, params, status }) => {
        chatbots.remove(workspaceId, params.chatbot_id)
        return status(204, undefined)
      },
      {
        params: ChatbotParams,
        response: { 204: t.Void(), ...errorResponses(404) },
        detail: { tags, summary: 'Delete a chatbot', description: 'Removes its integrations, flows and conversations.' },
      },
    )
}
