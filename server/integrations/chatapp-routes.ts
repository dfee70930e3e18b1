import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { ChatappHandshakeRecord, ChatappIntegration, CreateChatappIntegration, UpdateChatappIntegration } from './chatapp-model.ts'
import type { IntegrationService } from './service.ts'

const tags = ['Integrations']

export function chatappRoutes(auth: Authenticate, integrations: IntegrationService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/chatapp' })
    .use(auth)
    .post(
      '/',
      async ({ workspaceId, params, body, status }) => status(201, await integrations.chatapp.create(workspaceId, params.chatbot_id, body)),
      {
        params: ChatbotParams,
        body: CreateChatappIntegration,
        response: { 201: ChatappIntegration, ...errorResponses(400, 404, 409, 413, 415, 422) },
        detail: {
          tags,
          summary: 'Create the chatapp integration',
          description:
            "One per chatbot (409 integration_exists). Paste the record's callback_url and your verify_token into the provider's webhook settings.",
        },
      },
    )
    .get('/', ({ workspaceId, params }) => integrations.chatapp.get(workspaceId, params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: ChatappIntegration, ...errorResponses(404) },
      detail: { tags, summary: 'Get the chatapp integration' },
    })
    .patch('/', ({ workspaceId, params, body }) => integrations.chatapp.update(workspaceId, params.chatbot_id, body), {
      params: ChatbotParams,
      body: UpdateChatappIntegration,
      response: { 200: ChatappIntegration, ...errorResponses(400, 404, 413, 415, 422) },
      detail: { tags, summary: 'Update the chatapp integration', description: 'Partial. app_secret: null removes it.' },
    })
    .get('/handshake', ({ workspaceId, params }) => integrations.chatappHandshake(workspaceId, params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: ChatappHandshakeRecord, ...errorResponses(404) },
      detail: {
        tags,
        summary: "Whether the provider's webhook handshake succeeded",
        description:
          "When the provider's verify handshake on callback_url last succeeded (stored), and when and why one was last refused since Parley started (remembered, not stored: a refused request stores nothing). A refusal never clears an earlier success: anyone who knows the callback URL can send a wrong token.",
      },
    })
}
