import { createHash } from 'node:crypto'
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { ApiError, badRequest, conflict } from '../http/api-error.ts'
import { mcpConfigOf, mcpSecretsOf } from '../integrations/mcp-integration.ts'
import type { McpIntegrations } from '../integrations/mcp-integrations.ts'
import type { IntegrationRow } from '../integrations/model.ts'
import type { Clock } from '../support/clock.ts'
import type { Logger } from '../support/logger.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { randomToken } from '../support/random-token.ts'
import { VERSION } from '../version.ts'
import { oauthBinding } from './oauth-binding.ts'
import { oauthProvider, type OAuthSettings, type StartCapture } from './oauth-provider.ts'
import type { Units } from '../db/units.ts'
import type { OAuthStore } from './oauth-store.ts'
import { McpNetworkError, pinnedFetch } from './pinned-fetch.ts'

/** How long a person has to finish an authorization they started. */
export const STATE_LIFETIME_MS = 10 * 60_000
/** Started authorizations kept per integration; older ones stop working. */
const PENDING_PER_INTEGRATION = 5
export const CALLBACK_PATH = '/oauth/mcp/callback'

export interface McpOAuthDeps {
  integrations: McpIntegrations
  /** Grants are read here and changed in units; a started authorization is kept and taken in a unit. */
  stores: { mcpOAuth: OAuthStore }
  units: Units<{ mcpOAuth: OAuthStore }>
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  now: Clock
  nowMs?: () => number
  publicUrl: string
  logger: Logger
  ca?: string
}

export interface CallbackQuery {
  state?: string
  code?: string
  error?: string
  error_description?: string
}

export type McpOAuth = ReturnType<typeof mcpOAuth>

const digest = (state: string) => createHash('sha256').update(state).digest('base64url')

/**
 * OAuth for mcp integrations, per the MCP authorization spec, with the SDK's client auth
 * (server/mcp/oauth-provider.ts): a person's authorization (start, then the public callback),
 * and the provider each connection's transport uses (refresh, client credentials). Every
 * request it makes goes through the pinned fetch, so metadata, registration, token and
 * authorization server URLs all pass the outbound-address policy.
 */
export function mcpOAuth({ integrations, stores, units, policy, now, nowMs = Date.now, publicUrl, logger, ca }: McpOAuthDeps) {
  const redirectUrl = new URL(CALLBACK_PATH, publicUrl).href

  function settingsOf(row: IntegrationRow): OAuthSettings | null {
    const config = mcpConfigOf(row)
    if (config.auth.type !== 'oauth') return null
    return {
      integrationId: row.id,
      binding: oauthBinding(row),
      serverUrl: config.url,
      grant: config.auth.grant ?? 'authorization_code',
      clientId: config.auth.client_id ?? null,
      clientSecret: mcpSecretsOf(row).client_secret,
      scopes: config.auth.scopes ?? [],
      redirectUrl,
    }
  }

  const fetchFn = () => pinnedFetch({ policy, ca, note: {} })
  const currentBinding = async (id: string) => {
    const row = await integrations.rowById(id)
    return row ? oauthBinding(row) : null
  }
  const store = stores.mcpOAuth
  /** A wider scope a server asked for, being stored: wantedScopeOf waits for it. */
  const notes = new Map<string, Promise<void>>()
  const deps = () => ({ store, units, notes, now, nowMs, fetch: fetchFn(), currentBinding })

  /** The SDK could not run a step: why, for a person (never a token: the SDK's messages carry none). */
  function failed(error: unknown, doing: string): ApiError {
    const kind = error instanceof McpNetworkError ? ` (${error.kind})` : ''
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 300)
    return new ApiError(502, 'oauth_failed', `${doing} failed${kind}: ${message}`)
  }

  /**
   * What the server says when asked without a token (MCP authorization spec: the client uses
   * the WWW-Authenticate `resource_metadata` and `scope`); nothing when it says nothing useful.
   */
  async function challengeOf(serverUrl: string): Promise<{ scope?: string; resourceMetadataUrl?: URL }> {
    try {
      const response = await fetchFn()(serverUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'parley', version: VERSION } } }),
        signal: AbortSignal.timeout(10_000),
      })
      await response.body?.cancel()
      if (response.status !== 401 && response.status !== 403) return {}
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response)
      return { scope, resourceMetadataUrl }
    } catch {
      return {}
    }
  }

  return {
    redirectUrl,

    /** The provider a connection's transport authenticates with, or undefined for other auth types. */
    providerFor(row: IntegrationRow) {
      const settings = settingsOf(row)
      return settings ? oauthProvider(settings, deps(), { kind: 'connect' }) : undefined
    },

    /** The scope the server last asked for beyond the granted one, if any. */
    async wantedScopeOf(row: IntegrationRow): Promise<string | null> {
      const settings = settingsOf(row)
      await notes.get(row.id)
      return settings ? (await store.grant(row.id, settings.binding)).wantedScope : null
    },

    /** Discovers, registers if needed, and answers the URL a person opens to authorize Parley. */
    async start(workspaceId: string, chatbotId: string, id: string): Promise<{ authorization_url: string; expires_at: string }> {
      const row = await integrations.row(workspaceId, chatbotId, id)
      const settings = settingsOf(row)
      if (!settings) throw conflict('not_oauth', 'this mcp integration does not use OAuth (auth.type is not oauth)')
      if (settings.grant !== 'authorization_code') {
        throw conflict('not_oauth', 'this integration uses the client_credentials grant: Parley obtains its tokens itself, no person authorizes it')
      }
      const state = randomToken(43)
      const capture: StartCapture = {}
      try {
        const challenge = await challengeOf(settings.serverUrl)
        // What the server demanded beyond the grant, else what the integration names, else what the server asks now.
        const configured = settings.scopes.length > 0 ? settings.scopes.join(' ') : undefined
        const scope = (await store.grant(row.id, settings.binding)).wantedScope ?? configured ?? challenge.scope
        await auth(oauthProvider(settings, deps(), { kind: 'start', state, capture }), {
          serverUrl: settings.serverUrl,
          fetchFn: fetchFn(),
          ...(scope ? { scope } : {}),
          ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
        })
      } catch (error) {
        logger.info('mcp oauth start failed', { integration_id: row.id })
        throw failed(error, 'starting the authorization (discovery or client registration)')
      }
      if (!capture.authorizationUrl || !capture.codeVerifier) throw new ApiError(502, 'oauth_failed', 'the authorization server gave no authorization URL')
      // The person's browser goes there, not Parley; still, Parley hands out no URL it would refuse itself.
      const checked = await policy.resolveAndCheck(capture.authorizationUrl.href)
      if (!checked.ok) throw new ApiError(502, 'oauth_failed', `the authorization endpoint is refused: ${checked.reason}`)
      const expiresAt = nowMs() + STATE_LIFETIME_MS
      const pending = { integrationId: row.id, binding: settings.binding, codeVerifier: capture.codeVerifier, expiresAt }
      await units.unit((tx) => tx.mcpOAuth.savePending(digest(state), pending, PENDING_PER_INTEGRATION))
      return { authorization_url: capture.authorizationUrl.href, expires_at: new Date(expiresAt).toISOString() }
    },

    /** The authorization server sent the person back: exchanges the code for tokens. */
    async finish(query: CallbackQuery): Promise<{ name: string }> {
      if (!query.state) throw badRequest('invalid_state', 'the callback has no state parameter')
      // Looked up by its digest: the state itself is never stored, nor compared character by character.
      const state = query.state
      const pending = await units.unit((tx) => tx.mcpOAuth.takePending(digest(state), nowMs()))
      if (!pending) throw badRequest('invalid_state', 'this authorization is unknown, already used or expired: start it again')
      const row = await integrations.rowById(pending.integrationId)
      const settings = row && settingsOf(row)
      if (!row || !settings || settings.binding !== pending.binding) {
        throw badRequest('invalid_state', "the integration was deleted or its url or auth changed since this authorization started: start it again")
      }
      if (query.error) {
        const reason = `${query.error}${query.error_description ? `: ${query.error_description}` : ''}`.replace(/[^\x20-\x7e]/g, '').slice(0, 300)
        throw badRequest('authorization_denied', `the authorization server did not authorize Parley (${reason})`)
      }
      if (!query.code) throw badRequest('invalid_callback', 'the callback has neither a code nor an error')
      try {
        const result = await auth(oauthProvider(settings, deps(), { kind: 'finish', codeVerifier: pending.codeVerifier }), {
          serverUrl: settings.serverUrl,
          authorizationCode: query.code,
          fetchFn: fetchFn(),
        })
        if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens')
      } catch (error) {
        logger.info('mcp oauth token exchange failed', { integration_id: row.id })
        throw failed(error, 'exchanging the authorization code for tokens')
      }
      logger.info('mcp oauth authorized', { integration_id: row.id })
      return { name: row.name }
    },
  }
}
