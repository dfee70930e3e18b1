import { createHash, randomBytes } from 'node:crypto'

/** A client the authorization server knows: registered dynamically or set up beforehand. */
export interface KnownClient {
  client_id: string
  client_secret?: string
  redirect_uris: string[]
  grant_types: string[]
}

interface IssuedToken {
  clientId: string
  expiresAt: number
  scope: string
}

export interface OAuthServerOptions {
  /** Access token lifetime in seconds (default 3600). */
  expiresIn?: number
  /** Clients known before any registration (for a pre-registered client id, or client_credentials). */
  clients?: KnownClient[]
  /** false: no registration_endpoint (no dynamic client registration). */
  registration?: boolean
}

/**
 * A small but real OAuth 2.1 authorization server on 127.0.0.1, as the MCP authorization spec
 * expects one: RFC 8414 metadata, RFC 7591 dynamic registration, an authorization endpoint that
 * approves at once and redirects back with a code (a person who clicks "allow"), and a token
 * endpoint that checks the client, the redirect URI and the PKCE verifier (S256), issues
 * expiring access tokens with rotating refresh tokens, and the client_credentials grant.
 */
export function oauthServer(options: OAuthServerOptions = {}) {
  const clients = new Map<string, KnownClient>((options.clients ?? []).map((client) => [client.client_id, client]))
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; scope: string; resource: string | null }>()
  const accessTokens = new Map<string, IssuedToken>()
  const refreshTokens = new Map<string, { clientId: string; scope: string }>()
  const counters = { registrations: 0, authorizations: 0, tokens: { authorization_code: 0, refresh_token: 0, client_credentials: 0 }, refused: [] as string[], resources: [] as (string | null)[] }
  let expiresIn = options.expiresIn ?? 3600
  let denyNext = false
  let failingTokenRequests = 0

  const token = () => randomBytes(24).toString('base64url')
  const oauthError = (error: string, status = 400) => {
    counters.refused.push(error)
    return Response.json({ error }, { status })
  }

  function issue(clientId: string, scope: string, withRefresh: boolean) {
    const access = token()
    accessTokens.set(access, { clientId, expiresAt: Date.now() + expiresIn * 1000, scope })
    const answer: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: expiresIn, scope }
    if (withRefresh) {
      const refresh = token()
      refreshTokens.set(refresh, { clientId, scope })
      answer.refresh_token = refresh
    }
    return Response.json(answer, { headers: { 'cache-control': 'no-store' } })
  }

  /** client_secret_basic or client_secret_post; a public client (no secret) names itself only. */
  function authenticate(request: Request, form: URLSearchParams): KnownClient | null {
    let id = form.get('client_id')
    let secret = form.get('client_secret')
    const basic = request.headers.get('authorization')?.match(/^Basic (.+)$/)?.[1]
    if (basic) {
      const [user, password] = Buffer.from(basic, 'base64').toString().split(':')
      id = decodeURIComponent(user ?? '')
      secret = decodeURIComponent(password ?? '')
    }
    const client = id ? clients.get(id) : undefined
    if (!client) return null
    if (client.client_secret !== undefined && client.client_secret !== secret) return null
    return client
  }

  async function handle(request: Request, origin: string): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return Response.json({
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        ...(options.registration === false ? {} : { registration_endpoint: `${origin}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        scopes_supported: ['tools:read', 'tools:call'],
      })
    }
    if (url.pathname === '/register' && request.method === 'POST' && options.registration !== false) {
      const metadata = (await request.json()) as { redirect_uris?: string[]; grant_types?: string[]; token_endpoint_auth_method?: string }
      if (!Array.isArray(metadata.redirect_uris)) return oauthError('invalid_redirect_uri')
      counters.registrations++
      const client: KnownClient = {
        client_id: `dyn-${token()}`,
        ...(metadata.token_endpoint_auth_method === 'none' ? {} : { client_secret: token() }),
        redirect_uris: metadata.redirect_uris,
        grant_types: metadata.grant_types ?? ['authorization_code'],
      }
      clients.set(client.client_id, client)
      return Response.json({ ...metadata, ...client, client_id_issued_at: Math.floor(Date.now() / 1000) }, { status: 201 })
    }
    if (url.pathname === '/authorize' && request.method === 'GET') {
      const q = url.searchParams
      const client = clients.get(q.get('client_id') ?? '')
      const redirectUri = q.get('redirect_uri') ?? ''
      // Without a known client and its registered redirect URI there is nowhere safe to send an error.
      if (!client || !client.redirect_uris.includes(redirectUri)) return new Response('unknown client or redirect_uri', { status: 400 })
      const back = new URL(redirectUri)
      back.searchParams.set('state', q.get('state') ?? '')
      if (denyNext) {
        denyNext = false
        back.searchParams.set('error', 'access_denied')
        back.searchParams.set('error_description', 'the person said no')
      } else if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
        back.searchParams.set('error', 'invalid_request')
      } else {
        counters.authorizations++
        const code = token()
        codes.set(code, { clientId: client.client_id, redirectUri, challenge: q.get('code_challenge') as string, scope: q.get('scope') ?? '', resource: q.get('resource') })
        back.searchParams.set('code', code)
      }
      return new Response(null, { status: 302, headers: { location: back.href } })
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      if (failingTokenRequests > 0) {
        failingTokenRequests--
        return new Response('upstream down', { status: 503 })
      }
      const form = new URLSearchParams(await request.text())
      const client = authenticate(request, form)
      if (!client) return oauthError('invalid_client', 401)
      const grant = form.get('grant_type')
      if (grant === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '')
        codes.delete(form.get('code') ?? '')
        if (!code || code.clientId !== client.client_id || code.redirectUri !== form.get('redirect_uri')) return oauthError('invalid_grant')
        const verifier = form.get('code_verifier') ?? ''
        if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge) return oauthError('invalid_grant')
        counters.tokens.authorization_code++
        counters.resources.push(form.get('resource'))
        return issue(client.client_id, code.scope, true)
      }
      if (grant === 'refresh_token') {
        const held = refreshTokens.get(form.get('refresh_token') ?? '')
        if (!held || held.clientId !== client.client_id) return oauthError('invalid_grant')
        refreshTokens.delete(form.get('refresh_token') ?? '')
        counters.tokens.refresh_token++
        return issue(client.client_id, held.scope, true)
      }
      if (grant === 'client_credentials') {
        if (client.client_secret === undefined || !client.grant_types.includes('client_credentials')) return oauthError('unauthorized_client')
        counters.tokens.client_credentials++
        return issue(client.client_id, form.get('scope') ?? '', false)
      }
      return oauthError('unsupported_grant_type')
    }
    return new Response('not here', { status: 404 })
  }

  const server: ReturnType<typeof Bun.serve> = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => handle(request, `http://127.0.0.1:${server.port}`) })
  const origin = `http://127.0.0.1:${server.port}`

  return {
    origin,
    counters,
    clients,
    /** What the MCP server asks: is this a live access token? */
    acceptsToken(access: string): boolean {
      const issued = accessTokens.get(access)
      return issued !== undefined && issued.expiresAt > Date.now()
    },
    setExpiresIn(seconds: number) {
      expiresIn = seconds
    },
    /** The next authorization is refused, as when a person clicks "deny". */
    denyNext() {
      denyNext = true
    },
    /** The next `count` token requests fail with 503, as during an outage. */
    failTokenRequests(count: number) {
      failingTokenRequests = count
    },
    /** Forgets every token it issued (revoked, or the server restarted without its store). */
    revokeAll() {
      accessTokens.clear()
      refreshTokens.clear()
    },
    stop: () => server.stop(true),
  }
}
export type RunningOAuthServer = ReturnType<typeof oauthServer>
