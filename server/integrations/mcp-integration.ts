import type { FieldError } from '../http/api-error.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { throwIfInvalid } from './integration-kind.ts'
import { maskOptional, maskSecret } from './mask-secret.ts'
import {
  type CreateMcpIntegration,
  DEFAULT_TOOL_TIMEOUT_MS,
  type McpAuthInput,
  type McpAuthType,
  type McpIntegration,
  type McpOAuthGrant,
  type McpOAuthStatus,
  type McpToolsInput,
  type McpTransport,
  type UpdateMcpIntegration,
} from './mcp-model.ts'
import type { IntegrationRow, IntegrationSettings, JsonObject } from './model.ts'

/** What `config` of an mcp row holds; secrets live in `secrets` (see McpSecrets). */
export interface McpConfig {
  url: string
  transport: McpTransport
  auth: { type: McpAuthType; grant?: McpOAuthGrant; client_id?: string | null; scopes?: string[] }
  tools: { allow: string[] | null; deny: string[] }
  timeout_ms: number
}

/**
 * The write-only part: a bearer token, header values, or OAuth's pre-registered client secret.
 * OAuth tokens and registered clients live in mcp_oauth_grants (server/mcp/oauth-store.ts).
 */
export interface McpSecrets {
  token?: string
  headers?: Record<string, string>
  client_secret?: string
}

/** Whether Parley holds usable OAuth tokens for an integration, for its record. */
export interface McpOAuthState {
  status: McpOAuthStatus
  /** When the access token expires (ISO), or null: none held, or no lifetime given. */
  token_expires_at: string | null
}

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
/** Headers the transport itself sets: a user value would break the protocol or the pinning. */
const RESERVED_HEADERS = new Set([
  'host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer',
  'accept', 'accept-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'proxy-authorization',
])

export const mcpConfigOf = (row: Pick<IntegrationRow, 'config'>) => row.config as unknown as McpConfig
export const mcpSecretsOf = (row: Pick<IntegrationRow, 'secrets'>) => row.secrets as McpSecrets

/**
 * The mcp type: how its request becomes stored settings and how a row is shown. Pure, like
 * the typed kinds; the service does the store, the uniqueness of the name and the events.
 */
export function mcpKind(outbound: Pick<OutboundUrlPolicy, 'checkOutboundUrl'>, oauthStateOf: (row: IntegrationRow) => Promise<McpOAuthState> = noOAuthState) {
  function checkUrl(value: string, errors: FieldError[]): void {
    if (/[\s\u0000-\u001f\u007f]/.test(value)) {
      errors.push({ path: '/url', message: 'must not contain spaces or control characters' })
      return
    }
    const checked = outbound.checkOutboundUrl(value)
    if (!checked.ok) errors.push({ path: '/url', message: checked.reason })
  }

  function authOf(input: McpAuthInput, errors: FieldError[]): { auth: McpConfig['auth']; secrets: McpSecrets } {
    const allowed: Record<McpAuthType, (keyof McpAuthInput)[]> = {
      none: [],
      bearer: ['token'],
      headers: ['headers'],
      oauth: ['grant', 'client_id', 'client_secret', 'scopes'],
    }
    for (const key of Object.keys(input) as (keyof McpAuthInput)[]) {
      if (key !== 'type' && !allowed[input.type].includes(key)) {
        errors.push({ path: `/auth/${key}`, message: `is not used with type ${input.type}` })
      }
    }
    switch (input.type) {
      case 'none':
        return { auth: { type: 'none' }, secrets: {} }
      case 'bearer':
        if (input.token === undefined) errors.push({ path: '/auth/token', message: 'is required with type bearer' })
        return { auth: { type: 'bearer' }, secrets: { token: input.token ?? '' } }
      case 'headers': {
        const headers = input.headers ?? {}
        if (Object.keys(headers).length === 0) errors.push({ path: '/auth/headers', message: 'must name at least one header with type headers' })
        checkHeaderNames(headers, errors)
        return { auth: { type: 'headers' }, secrets: { headers } }
      }
      case 'oauth': {
        const grant = input.grant ?? 'authorization_code'
        if (input.client_secret !== undefined && input.client_id === undefined) {
          errors.push({ path: '/auth/client_secret', message: 'needs client_id' })
        }
        // Machine to machine: the authorization server must already know the client.
        if (grant === 'client_credentials') {
          if (input.client_id === undefined) errors.push({ path: '/auth/client_id', message: 'is required with grant client_credentials' })
          if (input.client_secret === undefined) errors.push({ path: '/auth/client_secret', message: 'is required with grant client_credentials' })
        }
        const secrets: McpSecrets = input.client_secret === undefined ? {} : { client_secret: input.client_secret }
        return { auth: { type: 'oauth', grant, client_id: input.client_id ?? null, scopes: unique(input.scopes ?? []) }, secrets }
      }
    }
  }

  function toolsOf(input: McpToolsInput | undefined, current: McpConfig['tools']): McpConfig['tools'] {
    return {
      allow: input?.allow === undefined ? current.allow : input.allow === null ? null : unique(input.allow),
      deny: input?.deny === undefined ? current.deny : unique(input.deny),
    }
  }

  return {
    type: 'mcp' as const,

    create(input: CreateMcpIntegration): IntegrationSettings {
      const errors: FieldError[] = []
      checkUrl(input.url, errors)
      const { auth, secrets } = authOf(input.auth ?? { type: 'none' }, errors)
      throwIfInvalid(errors)
      const config: McpConfig = {
        url: input.url,
        transport: input.transport ?? 'auto',
        auth,
        tools: toolsOf(input.tools, { allow: null, deny: [] }),
        timeout_ms: input.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS,
      }
      return { name: input.name, is_active: input.is_active ?? true, config: config as unknown as JsonObject, secrets: secrets as JsonObject, public_key: null }
    },

    /**
     * `auth` is replaced whole. OAuth tokens are bound to the url and auth they were obtained
     * under (see server/mcp/oauth-binding.ts), so changing either leaves them unused; a token,
     * header values or a client secret stay only while url stays the same.
     */
    update(current: IntegrationSettings, input: UpdateMcpIntegration): IntegrationSettings {
      const errors: FieldError[] = []
      const before = mcpConfigOf(current)
      if (input.url !== undefined) checkUrl(input.url, errors)
      const replaced = input.auth === undefined ? null : authOf(input.auth, errors)
      // Kept for another URL, write-only credentials would be sent to whoever chose it on the next
      // connection; another path can be another tenant of the same host, so any change counts.
      if (input.url !== undefined && errors.length === 0 && !replaced && holdsCredentials(mcpSecretsOf(current)) && new URL(input.url).href !== new URL(before.url).href) {
        errors.push({ path: '/auth', message: `send auth again (or {"type": "none"}) when url changes: the stored credentials are only sent to ${before.url}` })
      }
      throwIfInvalid(errors)
      const secrets: McpSecrets = replaced ? replaced.secrets : { ...mcpSecretsOf(current) }
      const config: McpConfig = {
        url: input.url ?? before.url,
        transport: input.transport ?? before.transport,
        auth: replaced ? replaced.auth : before.auth,
        tools: toolsOf(input.tools, before.tools),
        timeout_ms: input.timeout_ms ?? before.timeout_ms,
      }
      return { ...current, config: config as unknown as JsonObject, secrets: secrets as JsonObject }
    },

    /** The record; an oauth integration's reads what its grant says (the only read). */
    async render(row: IntegrationRow): Promise<McpIntegration> {
      const config = mcpConfigOf(row)
      const secrets = mcpSecretsOf(row)
      return {
        id: row.id,
        chatbot_id: row.chatbot_id,
        type: 'mcp',
        name: row.name,
        is_active: row.is_active,
        config: {
          url: config.url,
          transport: config.transport,
          auth: renderAuth(config.auth, secrets, config.auth.type === 'oauth' ? await oauthStateOf(row) : null),
          tools: { allow: config.tools.allow, deny: config.tools.deny },
          timeout_ms: config.timeout_ms,
        },
        created_at: row.created_at,
        updated_at: row.updated_at,
      }
    },
  }
}

export type McpKind = ReturnType<typeof mcpKind>

const noOAuthState = async (): Promise<McpOAuthState> => ({ status: 'needs_authorization', token_expires_at: null })

function holdsCredentials(secrets: McpSecrets): boolean {
  return Boolean(secrets.token || secrets.client_secret || Object.keys(secrets.headers ?? {}).length > 0)
}

function renderAuth(auth: McpConfig['auth'], secrets: McpSecrets, oauthState: McpOAuthState | null): McpIntegration['config']['auth'] {
  switch (auth.type) {
    case 'none':
      return { type: 'none' }
    case 'bearer':
      return { type: 'bearer', token: maskSecret(secrets.token ?? '') }
    case 'headers':
      return {
        type: 'headers',
        headers: Object.fromEntries(Object.entries(secrets.headers ?? {}).map(([name, value]) => [name, maskSecret(value)])),
      }
    case 'oauth':
      return {
        type: 'oauth',
        grant: auth.grant ?? 'authorization_code',
        client_id: auth.client_id ?? null,
        client_secret: maskOptional(secrets.client_secret),
        scopes: auth.scopes ?? [],
        ...(oauthState ?? { status: 'needs_authorization', token_expires_at: null }),
      }
  }
}

function checkHeaderNames(headers: Record<string, string>, errors: FieldError[]): void {
  const seen = new Set<string>()
  for (const name of Object.keys(headers)) {
    const path = `/auth/headers/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`
    const lower = name.toLowerCase()
    if (!HEADER_NAME.test(name)) errors.push({ path, message: 'is not a valid header name (letters, digits and !#$%&\'*+.^_`|~-, 1 to 100)' })
    else if (RESERVED_HEADERS.has(lower)) errors.push({ path, message: 'is set by the MCP transport itself and cannot be configured' })
    else if (seen.has(lower)) errors.push({ path, message: 'repeats a header name (names ignore case)' })
    seen.add(lower)
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}
