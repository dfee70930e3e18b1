import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { errorResponses } from '../http/error-responses.ts'
import { McpIntegrationParams } from '../integrations/mcp-model.ts'
import type { McpService } from './mcp-service.ts'
import { McpTestResult, McpToolCall, McpToolList, McpToolParams, McpToolResult } from './model.ts'

const tags = ['Integrations']

/** Talking to an mcp integration's server: the connection test, its tools, one tool call. */
export function mcpServerRoutes(auth: Authenticate, mcp: McpService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/mcp/:integration_id' })
    .use(auth)
    .post('/test', ({ workspaceId, params }) => mcp.test(workspaceId, params.chatbot_id, params.integration_id), {
      params: McpIntegrationParams,
      response: { 200: McpTestResult, ...errorResponses(404, 415) },
      detail: {
        tags,
        summary: 'Test the connection to an mcp server',
        description:
          'Connects with the stored settings, initializes, lists every tool (all pages). 200 either way: ok true with what the server offers, or ok false with a classified failure (dns, refused, tls, timeout, unauthorized, not_mcp, protocol_error, blocked_address).',
      },
    })
    .get('/tools', ({ workspaceId, params }) => mcp.tools(workspaceId, params.chatbot_id, params.integration_id), {
      params: McpIntegrationParams,
      response: { 200: McpToolList, ...errorResponses(404, 502) },
      detail: {
        tags,
        summary: "List an mcp server's tools",
        description: 'The last listing and when it was made; listed again when older than the set age or when the server said its tools changed. allowed shows the allow and deny lists applied.',
      },
    })
    .post(
      '/tools/:name/call',
      ({ workspaceId, params, body }) => mcp.call(workspaceId, params.chatbot_id, params.integration_id, params.name, body?.arguments ?? {}),
      {
        params: McpToolParams,
        body: McpToolCall,
        response: { 200: McpToolResult, ...errorResponses(400, 403, 404, 409, 413, 415, 422, 502, 504) },
        detail: {
          tags,
          summary: 'Call one tool',
          description:
            "Refused with 403 tool_not_allowed when the allow or deny list keeps the tool out; the arguments are checked against the tool's input schema (422 naming the path). The result is MCP content blocks, cut past a set size with a marker.",
        },
      },
    )
}
