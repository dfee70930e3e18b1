import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'
import { EXAMPLE_IDS, MaskedSecret, recordHead, recordTail } from './model.ts'

/** Default and ceiling of one tool call's time, in milliseconds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000
export const MAX_TOOL_TIMEOUT_MS = 300_000
export const MAX_AUTH_HEADERS = 20
export const MAX_TOOL_NAMES = 1000

export const MCP_TRANSPORTS = ['auto', 'streamable-http', 'sse'] as const
export type McpTransport = (typeof MCP_TRANSPORTS)[number]
export const MCP_AUTH_TYPES = ['none', 'bearer', 'headers', 'oauth'] as const
export type McpAuthType = (typeof MCP_AUTH_TYPES)[number]
export type McpOAuthGrant = 'authorization_code' | 'client_credentials'
export type McpOAuthStatus = 'authorized' | 'needs_authorization' | 'not_connected'

// The name prefixes the server's tools for an agent (`orders__find`), so it keeps to the
// characters every LLM function-calling API accepts.
const McpName = t.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$',
  error: 'must be 1 to 40 letters, digits, underscores or hyphens, starting with a letter or digit',
  description: 'unique per chatbot (ignoring case); namespaces the server\'s tools',
  examples: ['orders'],
})
const McpUrl = t.String({
  minLength: 1,
  maxLength: 2048,
  description: "the server's endpoint (http or https); private and local addresses are refused unless the operator allows them",
  examples: ['https://tools.example.com/mcp'],
})
const TransportName = () => t.Union([t.Literal('auto'), t.Literal('streamable-http'), t.Literal('sse')])
const AuthTypeName = () => t.Union([t.Literal('none'), t.Literal('bearer'), t.Literal('headers'), t.Literal('oauth')])
const Transport = t.Union(
  [t.Literal('auto'), t.Literal('streamable-http'), t.Literal('sse')],
  { description: 'auto (default): streamable HTTP, falling back to the legacy HTTP+SSE transport; or one forced' },
)
const SecretText = (description: string, maxLength: number) =>
  t.String({
    pattern: `^[ -~]{1,${maxLength}}$`,
    error: `must be 1 to ${maxLength} printable ASCII characters`,
    description: `${description}; write-only`,
  })
const ToolName = t.String({
  pattern: '^[^\\u0000-\\u001f\\u007f]{1,128}$',
  error: 'must be 1 to 128 characters without control characters',
  examples: ['find_order'],
})
const Scope = t.String({ pattern: '^[!#-\\[\\]-~]{1,200}$', error: 'must be 1 to 200 visible ASCII characters without spaces, quotes or backslashes' })

const AuthInput = t.Object(
  {
    type: t.Union([t.Literal('none'), t.Literal('bearer'), t.Literal('headers'), t.Literal('oauth')], { description: 'none, bearer, headers or oauth' }),
    token: t.Optional(SecretText('bearer: sent as Authorization: Bearer <token>', 4096)),
    headers: t.Optional(
      t.Record(t.String(), SecretText('a header value', 4096), {
        description: 'headers: sent with every request, values write-only',
        maxProperties: MAX_AUTH_HEADERS,
      }),
    ),
    grant: t.Optional(
      t.Union([t.Literal('authorization_code'), t.Literal('client_credentials')], {
        description: 'oauth: authorization_code (default; a person authorizes once through oauth/start) or client_credentials (machine to machine; needs client_id and client_secret)',
      }),
    ),
    client_id: t.Optional(t.String({ pattern: '^[!-~]{1,512}$', error: 'must be 1 to 512 visible ASCII characters', description: 'oauth: a pre-registered client id; absent: dynamic client registration' })),
    client_secret: t.Optional(SecretText('oauth: the pre-registered client secret', 1024)),
    scopes: t.Optional(t.Array(Scope, { maxItems: 50, description: 'oauth: scopes to ask for' })),
  },
  {
    additionalProperties: false,
    description: 'none; bearer {token}; headers {headers: {name: value}}; oauth {grant?, client_id?, client_secret?, scopes?}',
    examples: [{ type: 'bearer', token: 'sk-live-4f9a...' }],
  },
)
export type McpAuthInput = Static<typeof AuthInput>

const ToolNames = t.Array(ToolName, { maxItems: MAX_TOOL_NAMES })
const ToolsInput = t.Object(
  {
    allow: t.Optional(t.Union([ToolNames, t.Null()], { description: 'null (default): every tool; or the names offered' })),
    deny: t.Optional(t.Array(ToolName, { maxItems: MAX_TOOL_NAMES, description: 'names never offered, whatever allow says' })),
  },
  { additionalProperties: false },
)
export type McpToolsInput = Static<typeof ToolsInput>

// t.Number, not Elysia's t.Integer, which would take "30000" as a number.
const TimeoutMs = t.Number({
  minimum: 1000,
  maximum: MAX_TOOL_TIMEOUT_MS,
  multipleOf: 1,
  error: `must be a whole number of milliseconds from 1000 to ${MAX_TOOL_TIMEOUT_MS}`,
  description: `per tool call, in milliseconds (default ${DEFAULT_TOOL_TIMEOUT_MS})`,
})

export const CreateMcpIntegration = t.Object(
  {
    name: McpName,
    url: McpUrl,
    transport: t.Optional(Transport),
    auth: t.Optional(AuthInput),
    tools: t.Optional(ToolsInput),
    timeout_ms: t.Optional(TimeoutMs),
    is_active: t.Optional(t.Boolean({ description: 'default true' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'orders',
        url: 'https://tools.example.com/mcp',
        auth: { type: 'bearer', token: 'sk-live-4f9a8b7c6d5e' },
        tools: { allow: null, deny: ['delete_order'] },
      },
    ],
  },
)
export type CreateMcpIntegration = Static<typeof CreateMcpIntegration>

export const UpdateMcpIntegration = t.Object(
  {
    name: t.Optional(McpName),
    url: t.Optional(McpUrl),
    transport: t.Optional(Transport),
    auth: t.Optional(AuthInput),
    tools: t.Optional(ToolsInput),
    timeout_ms: t.Optional(TimeoutMs),
    is_active: t.Optional(t.Boolean()),
  },
  {
    additionalProperties: false,
    description: 'Partial: only the fields sent change; auth is replaced whole, tools key by key',
    examples: [{ tools: { allow: ['find_order', 'order_status'] } }, { auth: { type: 'headers', headers: { 'X-Api-Key': 'k-12345678901234' } } }],
  },
)
export type UpdateMcpIntegration = Static<typeof UpdateMcpIntegration>

export const McpIntegrationParams = t.Object({
  chatbot_id: t.String({ description: 'chatbot ULID' }),
  integration_id: t.String({ description: 'mcp integration ULID' }),
})

const AuthShown = t.Object(
  {
    type: AuthTypeName(),
    token: t.Optional(MaskedSecret),
    headers: t.Optional(t.Record(t.String(), MaskedSecret)),
    grant: t.Optional(t.Union([t.Literal('authorization_code'), t.Literal('client_credentials')])),
    client_id: t.Optional(t.Union([t.String(), t.Null()])),
    client_secret: t.Optional(t.Union([MaskedSecret, t.Null()])),
    scopes: t.Optional(t.Array(t.String())),
    status: t.Optional(
      t.Union([t.Literal('authorized'), t.Literal('needs_authorization'), t.Literal('not_connected')], {
        description:
          'oauth: authorized (Parley holds tokens); needs_authorization (a person must complete oauth/start: no tokens yet, or a refresh failed); not_connected (client_credentials: tokens come with the first connection)',
      }),
    ),
    token_expires_at: t.Optional(t.Union([Timestamp, t.Null()], { description: 'oauth: when the access token expires (Parley refreshes it before)' })),
  },
  { description: 'the auth settings; every secret masked' },
)

export const McpIntegration = t.Object(
  {
    ...recordHead,
    type: t.Literal('mcp'),
    config: t.Object({
      url: t.String(),
      transport: TransportName(),
      auth: AuthShown,
      tools: t.Object({ allow: t.Union([t.Array(t.String()), t.Null()]), deny: t.Array(t.String()) }),
      timeout_ms: t.Integer(),
    }),
    ...recordTail,
  },
  {
    examples: [
      {
        id: EXAMPLE_IDS.id,
        chatbot_id: EXAMPLE_IDS.chatbot_id,
        type: 'mcp',
        name: 'orders',
        is_active: true,
        config: {
          url: 'https://tools.example.com/mcp',
          transport: 'auto',
          auth: { type: 'bearer', token: '••••6d5e' },
          tools: { allow: null, deny: ['delete_order'] },
          timeout_ms: DEFAULT_TOOL_TIMEOUT_MS,
        },
        created_at: EXAMPLE_IDS.created_at,
        updated_at: null,
      },
    ],
  },
)
export type McpIntegration = Static<typeof McpIntegration>
