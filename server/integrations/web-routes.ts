import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import type { IntegrationService } from './service.ts'
import { CreateWebIntegration, UpdateWebIntegration, WebIntegration } from './web-model.ts'

const tags = ['Integrations']

export function webRoutes(auth: Authenticate, integrations: IntegrationService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/web' })
    .use(auth)
    .post('/', async ({ workspaceId, params, body, status }) => status(201, await integrations.web.create(workspaceId, params.chatbot_id, body)), {
      params: ChatbotParams,
      body: CreateWebIntegration,
      response: { 201: WebIntegration, ...errorResponses(400, 404, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Create the web integration',
        description: 'One per chatbot (409 integration_exists). widget_config gets every default filled in.',
      },
    })
    .get('/', ({ workspaceId, params }) => integrations.web.get(workspaceId, params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: WebIntegration, ...errorResponses(404) },
      detail: { tags, summary: 'Get the web integration' },
    })
    .patch('/', ({ workspaceId, params, body }) => integrations.web.update(workspaceId, params.chatbot_id, body), {
      params: ChatbotParams,
      body: UpdateWebIntegration,
      response: { 200: WebIntegration, ...errorResponses(400, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Update the web integration',
        description:
          'Partial. widget_config is merged key by key (null restores a default); identity_secret and default_country take null to remove them.',
      },
    })
}
