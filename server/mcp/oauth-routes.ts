import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { errorResponses } from '../http/error-responses.ts'
import { perAddressLimit } from '../http/per-address-limit.ts'
import { refuseRepeatedQueryParameters } from '../http/repeated-query.ts'
import { McpIntegrationParams } from '../integrations/mcp-model.ts'
import { CALLBACK_PATH, type McpOAuth } from './oauth-service.ts'

const tags = ['Integrations']

const OAuthStarted = t.Object(
  {
    authorization_url: t.String({ description: "the authorization server's page a person opens to authorize Parley" }),
    expires_at: t.String({ format: 'date-time', description: 'the authorization must be finished before this (10 minutes)' }),
  },
  { examples: [{ authorization_url: 'https://tools.example.com/auth/authorize?response_type=code&client_id=...', expires_at: '2026-01-15T09:43:00.000Z' }] },
)

/** POST .../mcp/{id}/oauth/start: a person authorizes Parley with an OAuth-protected server. */
export function mcpOAuthRoutes(auth: Authenticate, oauth: McpOAuth) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/mcp/:integration_id/oauth' })
    .use(auth)
    .post('/start', ({ workspaceId, params }) => oauth.start(workspaceId, params.chatbot_id, params.integration_id), {
      params: McpIntegrationParams,
      response: { 200: OAuthStarted, ...errorResponses(404, 409, 415, 502) },
      detail: {
        tags,
        summary: 'Start the OAuth authorization of an mcp integration',
        description:
          'Discovers the authorization server (protected resource metadata, then its metadata), registers Parley as a client when no client_id is set, and answers the URL with PKCE and a single-use state. The authorization server sends the person back to GET /oauth/mcp/callback, which stores the tokens. 409 not_oauth for other auth types and the client_credentials grant; 502 oauth_failed when discovery or registration fails.',
      },
    })
}

const CallbackQuery = t.Object(
  {
    state: t.Optional(t.String({ maxLength: 512 })),
    code: t.Optional(t.String({ maxLength: 4096 })),
    error: t.Optional(t.String({ maxLength: 200 })),
    error_description: t.Optional(t.String({ maxLength: 1000 })),
  },
  { additionalProperties: true },
)

/** GET /oauth/mcp/callback: public, where the authorization server sends the person back. */
export function mcpOAuthCallbackRoutes(oauth: McpOAuth, perMinutePerAddress: number) {
  return new Elysia().use(perAddressLimit(perMinutePerAddress)).get(
    CALLBACK_PATH,
    async ({ request, query, set }) => {
      // `?state=A&state=B` would leave which state counts to the query parser, and spend one.
      refuseRepeatedQueryParameters(request)
      const { name } = await oauth.finish(query)
      set.headers['content-type'] = 'text/html; charset=utf-8'
      set.headers['cache-control'] = 'no-store'
      return `<!doctype html><meta charset="utf-8"><title>Parley authorized</title><p>Parley may now use the MCP server <b>${escapeHtml(name)}</b>. You can close this page.</p>`
    },
    {
      query: CallbackQuery,
      response: { 200: t.String({ description: 'a short HTML page for the person' }), ...errorResponses(400, 422, 429, 502) },
      detail: {
        tags,
        summary: 'OAuth callback for mcp integrations',
        description:
          'Public. Takes the state (single-use, expiring, bound to one integration and its settings) and the code, exchanges the code with the PKCE verifier and stores the tokens; they never leave Parley. 400 invalid_state, authorization_denied or invalid_callback; 422 when a parameter is given more than once (the state is not used up); 502 oauth_failed when the token exchange fails.',
      },
    },
  )
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
