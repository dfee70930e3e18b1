import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams, listOf, PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { CreateMcpIntegration, McpIntegration, McpIntegrationParams, UpdateMcpIntegration } from './mcp-model.ts'
import type { IntegrationService } from './service.ts'

const tags = ['Integrations']

/** The mcp integrations of a chatbot: many per chatbot, so every record has its id in the path. */
export function mcpRoutes(auth: Authenticate, integrations: IntegrationService) {
  const mcp = integrations.mcp
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/mcp' })
    .use(auth)
    .post('/', async ({ workspaceId, params, body, status }) => status(201, await mcp.create(workspaceId, params.chatbot_id, body)), {
      params: ChatbotParams,
      body: CreateMcpIntegration,
      response: { 201: McpIntegration, ...errorResponses(400, 404, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Create an mcp integration',
        description: 'A remote MCP tool server. name is unique per chatbot, ignoring case (409 name_taken). Secrets are write-only.',
      },
    })
    .get('/', ({ workspaceId, params, query }) => mcp.list(workspaceId, params.chatbot_id, query), {
      params: ChatbotParams,
      query: PageQuery,
      response: { 200: listOf(McpIntegration), ...errorResponses(404, 422) },
      detail: { tags, summary: 'List mcp integrations', description: 'Whole records, newest first; secrets masked.' },
    })
    .get('/:integration_id', ({ workspaceId, params }) => mcp.get(workspaceId, params.chatbot_id, params.integration_id), {
      params: McpIntegrationParams,
      response: { 200: McpIntegration, ...errorResponses(404) },
      detail: { tags, summary: 'Get an mcp integration' },
    })
    .patch(
      '/:integration_id',
      ({ workspaceId, params, body }) => mcp.update(workspaceId, params.chatbot_id, params.integration_id, body),
      {
        params: McpIntegrationParams,
        body: UpdateMcpIntegration,
        response: { 200: McpIntegration, ...errorResponses(400, 404, 409, 413, 415, 422) },
        detail: {
          tags,
          summary: 'Update an mcp integration',
          description: 'Partial. auth is replaced whole; tools.allow and tools.deny each change when sent. is_active: false closes its connection.',
        },
      },
    )
    .delete(
      '/:integration_id',
      async ({ workspaceId, params, status }) => {
        await mcp.remove(workspaceId, params.chatbot_id, params.integration_id)
        return status(204, undefined)
      },
      {
        params: McpIntegrationParams,
        response: { 204: t.Void(), ...errorResponses(404) },
        detail: { tags, summary: 'Delete an mcp integration', description: 'Permanent; its connection is closed at once.' },
      },
    )
}
