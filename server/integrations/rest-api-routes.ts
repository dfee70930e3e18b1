import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import {
  CreatedRestApiIntegration,
  CreateRestApiIntegration,
  RestApiIntegration,
  UpdatedRestApiIntegration,
  UpdateRestApiIntegration,
} from './rest-api-model.ts'
import type { IntegrationService } from './service.ts'

const tags = ['Integrations']

export function restApiRoutes(auth: Authenticate, integrations: IntegrationService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/rest-api' })
    .use(auth)
    .post(
      '/',
      async ({ workspaceId, params, body, status }) => status(201, await integrations.restApi.create(workspaceId, params.chatbot_id, body)),
      {
        params: ChatbotParams,
        body: CreateRestApiIntegration,
        response: { 201: CreatedRestApiIntegration, ...errorResponses(400, 404, 409, 413, 415, 422) },
        detail: {
          tags,
          summary: 'Create the rest-api integration',
          description:
            'One per chatbot (409 integration_exists). The answer carries signing_secret (whsec_...) this once; keep it to verify the webhook-signature of outbound messages.',
        },
      },
    )
    .get('/', ({ workspaceId, params }) => integrations.restApi.get(workspaceId, params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: RestApiIntegration, ...errorResponses(404) },
      detail: { tags, summary: 'Get the rest-api integration' },
    })
    .patch('/', ({ workspaceId, params, body }) => integrations.restApi.update(workspaceId, params.chatbot_id, body), {
      params: ChatbotParams,
      body: UpdateRestApiIntegration,
      response: { 200: UpdatedRestApiIntegration, ...errorResponses(400, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Update the rest-api integration',
        description: 'Partial. rotate_secret: true replaces the signing secret and shows the new one in this answer only.',
      },
    })
}
