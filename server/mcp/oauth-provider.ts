import { auth, extractWWWAuthenticateParams, type OAuthClientProvider, type OAuthDiscoveryState, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpOAuthGrant } from '../integrations/mcp-model.ts'
import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import type { OAuthGrant, OAuthStore, StoredTokens } from './oauth-store.ts'

/** An access token this close to its expiry is refreshed before it is sent. */
export const REFRESH_MARGIN_MS = 60_000

/** One integration's OAuth settings, with the client secret raw (never log this). */
export interface OAuthSettings {
  integrationId: string
  binding: string
  serverUrl: string
  grant: McpOAuthGrant
  clientId: string | null
  clientSecret: string | undefined
  scopes: string[]
  /** Parley's callback (PARLEY_PUBLIC_URL + /oauth/mcp/callback). */
  redirectUrl: string
}

export interface OAuthProviderDeps {
  store: OAuthStore
  /** The grant is changed in a unit of its own. */
  units: Units<{ mcpOAuth: OAuthStore }>
  /** Notes taken while a server's answer is handled (a wider scope asked for), until stored: reads of the grant wait for them. */
  notes?: Map<string, Promise<void>>
  /** The binding of the integration as stored now, or null when it is gone: what is learnt under old settings is not kept. */
  currentBinding: (integrationId: string) => Promise<string | null>
  now: Clock
  nowMs: () => number
  /** The pinned, policy-checked fetch every OAuth request goes through. */
  fetch: FetchLike
}

/** What the SDK's auth() hands back while a person's authorization starts. */
export interface StartCapture {
  authorizationUrl?: URL
  codeVerifier?: string
}

/**
 * The SDK's OAuthClientProvider over Parley's store, for one integration. The SDK does the
 * protocol (discovery of the protected resource and authorization server metadata, dynamic
 * client registration, PKCE, the token and refresh requests); this object only keeps what it
 * learns, under the integration's binding.
 *
 * - `connect`: for a connection's transport. tokens() refreshes an access token close to its
 *   expiry first, and with the authorization-code grant and nothing usable it refuses at once
 *   (needs_authorization) instead of letting the SDK try to send a person somewhere.
 * - `start`: a person starts an authorization: the URL and PKCE verifier are captured.
 * - `finish`: the callback exchanges the code with the verifier kept from the start.
 */
export function oauthProvider(settings: OAuthSettings, deps: OAuthProviderDeps, mode: { kind: 'connect' } | { kind: 'start'; state: string; capture: StartCapture } | { kind: 'finish'; codeVerifier: string }): ConnectionOAuth {
  const { store, units, now, nowMs } = deps
  const interactive = settings.grant === 'authorization_code'
  const read = (): Promise<OAuthGrant> => store.grant(settings.integrationId, settings.binding)
  async function save(change: Partial<OAuthGrant>): Promise<void> {
    // Settings changed (or the integration went) while the SDK worked: what it learnt is for the old ones.
    if ((await deps.currentBinding(settings.integrationId)) !== settings.binding) return
    await units.unit((tx) => tx.mcpOAuth.update(settings.integrationId, settings.binding, change, now()))
  }

  const clientMetadata: OAuthClientMetadata = {
    client_name: 'Parley',
    redirect_uris: interactive ? [settings.redirectUrl] : [],
    grant_types: interactive ? ['authorization_code', 'refresh_token'] : ['client_credentials'],
    response_types: interactive ? ['code'] : [],
    ...(settings.scopes.length > 0 ? { scope: settings.scopes.join(' ') } : {}),
  }

  /** The provider the SDK's auth() runs with: stored tokens as they are. */
  const base: OAuthClientProvider = {
    redirectUrl: interactive ? settings.redirectUrl : undefined,
    clientMetadata,
    state: () => (mode.kind === 'start' ? mode.state : ''),
    async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
      const stored = (await read()).client
      if (settings.clientId === null) return stored ?? undefined
      // A pre-registered client, once the SDK has bound it to its authorization server.
      if (stored?.client_id === settings.clientId) return stored
      return { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) }
    },
    saveClientInformation: (client) => save({ client }),
    // A person starting again means a new authorization, not a refresh of what is held.
    tokens: async () => (mode.kind === 'start' ? undefined : ((await read()).tokens ?? undefined)),
    async saveTokens(tokens: OAuthTokens) {
      const stored: StoredTokens = { ...tokens }
      if (typeof tokens.expires_in === 'number') stored.expires_at = nowMs() + tokens.expires_in * 1000
      // A refresh answer may omit the refresh token: the old one stays valid (RFC 6749 section 6).
      if (!stored.refresh_token) {
        const previous = (await read()).tokens?.refresh_token
        if (previous) stored.refresh_token = previous
      }
      // A person's new authorization asked for the wider scope, if one was wanted.
      return save({ tokens: stored, needsAuthorization: false, ...(mode.kind === 'finish' ? { wantedScope: null } : {}) })
    },
    async redirectToAuthorization(url: URL) {
      if (mode.kind === 'start') {
        mode.capture.authorizationUrl = url
        return
      }
      // Anywhere else the SDK wants a person, and Parley has none at hand: the record says so. Not
      // while a refresh token is still held: the SDK also gets here when the authorization server
      // failed (5xx, unreachable), and that refresh token may work next time. A refused one
      // (invalid_grant) has been dropped by then (invalidateCredentials).
      if (!(await read()).tokens?.refresh_token) return save({ tokens: null, needsAuthorization: true })
    },
    saveCodeVerifier(verifier: string) {
      if (mode.kind === 'start') mode.capture.codeVerifier = verifier
    },
    codeVerifier() {
      if (mode.kind !== 'finish') throw new Error('no authorization is being finished')
      return mode.codeVerifier
    },
    invalidateCredentials(scope) {
      const change: Partial<OAuthGrant> = {}
      if (scope === 'all' || scope === 'tokens') change.tokens = null
      if ((scope === 'all' || scope === 'client') && settings.clientId === null) change.client = null
      if (scope === 'all' || scope === 'discovery') change.discovery = null
      if (Object.keys(change).length > 0) return save(change)
    },
    saveDiscoveryState: (discovery: OAuthDiscoveryState) => save({ discovery }),
    discoveryState: async () => (await read()).discovery ?? undefined,
    ...(interactive
      ? {}
      : {
          prepareTokenRequest(scope?: string) {
            const params = new URLSearchParams({ grant_type: 'client_credentials' })
            if (scope) params.set('scope', scope)
            return params
          },
        }),
  }
  if (mode.kind !== 'connect') return { ...base, noteAnswer: () => {} }

  let refreshing: Promise<unknown> | null = null
  /** Runs the SDK's auth() once at a time: a refresh, or a client-credentials grant. */
  function renew(): Promise<unknown> {
    refreshing ??= auth(base, { serverUrl: settings.serverUrl, fetchFn: deps.fetch })
      .catch(() => {})
      .finally(() => {
        refreshing = null
      })
    return refreshing
  }

  return {
    ...base,
    async tokens(): Promise<OAuthTokens | undefined> {
      let grant = await read()
      const stale = (tokens: StoredTokens | null) => !tokens || (tokens.expires_at !== undefined && tokens.expires_at - nowMs() < REFRESH_MARGIN_MS)
      if (interactive && (grant.needsAuthorization || !grant.tokens)) throw needsAuthorization()
      if (stale(grant.tokens) && (!interactive || grant.tokens?.refresh_token)) {
        await renew()
        grant = await read()
        if (interactive && (grant.needsAuthorization || !grant.tokens)) throw needsAuthorization()
      }
      return grant.tokens ?? undefined
    },
    noteAnswer(response: Response) {
      if (response.status !== 403) return
      const { error, scope } = extractWWWAuthenticateParams(response)
      // Noted while the answer is handled: the call does not wait for it (a failure to note it is no failure of the call), a read of the grant does.
      if (error === 'insufficient_scope' && scope) {
        const noted = save({ wantedScope: scope }).catch(() => {})
        deps.notes?.set(settings.integrationId, noted)
        void noted.then(() => deps.notes?.get(settings.integrationId) === noted && deps.notes.delete(settings.integrationId))
      }
    },
  }
}

/** The provider, and what a connection tells it of the server's answers (a request for more scope). */
export type ConnectionOAuth = OAuthClientProvider & { noteAnswer(response: Response): void }

/** The authorization-code grant without usable tokens: a person must authorize (again). */
export class NeedsAuthorizationError extends UnauthorizedError {
  readonly needsAuthorization = true
  constructor() {
    super('Parley holds no usable OAuth tokens for this server: a person must authorize it (POST .../oauth/start)')
    this.name = 'NeedsAuthorizationError'
  }
}

const needsAuthorization = () => new NeedsAuthorizationError()
