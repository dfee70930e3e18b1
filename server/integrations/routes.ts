import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { chatappRoutes } from './chatapp-routes.ts'
import { mcpRoutes } from './mcp-routes.ts'
import { IntegrationList, IntegrationListQuery, IntegrationParams } from './model.ts'
import { Integration } from './record-model.ts'
import { restApiRoutes } from './rest-api-routes.ts'
import type { IntegrationService } from './service.ts'
import { webRoutes } from './web-routes.ts'

const tags = ['Integrations']

/** Every integration route: the generic list, get and delete, the three typed paths and the mcp paths. */
export function integrationRoutes(auth: Authenticate, integrations: IntegrationService) {
  const generic = new Elysia({ prefix: '/chatbots/:chatbot_id/integrations' })
    .use(auth)
    .get('/', ({ workspaceId, params, query }) => integrations.list(workspaceId, params.chatbot_id, query), {
      params: ChatbotParams,
      query: IntegrationListQuery,
      response: { 200: IntegrationList, ...errorResponses(404, 422) },
      detail: { tags, summary: 'List integrations', description: 'Every type (or only `type`), newest first; items carry no settings.' },
    })
    .get(
      '/:integration_id',
      ({ workspaceId, params }) => integrations.get(workspaceId, params.chatbot_id, params.integration_id),
      {
        params: IntegrationParams,
        response: { 200: Integration, ...errorResponses(404) },
        detail: { tags, summary: 'Get an integration', description: 'The whole record of any type; secrets are masked.' },
      },
    )
    .delete(
      '/:integration_id',
      async ({ workspaceId, params, status }) => {
        await integrations.remove(workspaceId, params.chatbot_id, params.integration_id)
        return status(204, undefined)
      },
      {
        params: IntegrationParams,
        response: { 204: t.Void(), ...errorResponses(404) },
        detail: {
          tags,
          summary: 'Delete an integration',
          description: 'Permanent. Its channel is cut at once: open widget sockets close and inbound requests are refused.',
        },
      },
    )
  return new Elysia()
    .use(generic)
    .use(webRoutes(auth, integrations))
    .use(restApiRoutes(auth, integrations))
    .use(chatappRoutes(auth, integrations))
    .use(mcpRoutes(auth, integrations))
}
