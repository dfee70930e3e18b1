import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CallResult } from '../support/test-app.ts'
import { type McpApp, mcpApp } from './support/mcp-app.ts'
import { type RunningMcpServer, streamableServer } from './support/mcp-servers.ts'
import { oauthServer, type RunningOAuthServer } from './support/oauth-server.ts'

const CALLBACK = 'http://parley.test/oauth/mcp/callback'
const MACHINE = { client_id: 'parley-machine', client_secret: 'machine-secret-0123456789-Qwer', redirect_uris: [], grant_types: ['client_credentials'] }
const PRE = { client_id: 'parley-pre-registered', client_secret: 'pre-secret-0123456789-Asdf', redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'] }

/**
 * A person's browser: opens the authorization URL, where the authorization server approves at
 * once and redirects back; the redirect goes to Parley's public callback (PARLEY_PUBLIC_URL is
 * http://parley.test, so it is handed to the app in process), with no API key.
 */
async function authorizeInBrowser(app: McpApp, authorizationUrl: string): Promise<CallResult> {
  const atServer = await fetch(authorizationUrl, { redirect: 'manual' })
  expect(atServer.status).toBe(302)
  const back = new URL(atServer.headers.get('location') as string)
  expect(back.origin + back.pathname).toBe(CALLBACK)
  return app.call('GET', back.pathname + back.search, { key: null })
}

describe('OAuth-protected mcp servers: a real authorization server and an SDK server on 127.0.0.1', () => {
  let app: McpApp
  let as: RunningOAuthServer
  let mcp: RunningMcpServer
  let blockedAs: RunningMcpServer

  beforeAll(async () => {
    app = mcpApp({ connectTimeoutMs: 3000 })
    as = oauthServer({ clients: [MACHINE, PRE] })
    mcp = await streamableServer({ oauth: { authorizationServer: as.origin, acceptsToken: (token) => as.acceptsToken(token) } })
    // Its metadata names an authorization server on a private address Parley may not reach.
    blockedAs = await streamableServer({ oauth: { authorizationServer: 'http://rebind.test:9/', acceptsToken: () => false } })
  })
  afterAll(async () => {
    await app.close()
    await mcp.stop()
    await blockedAs.stop()
    as.stop()
  })

  const start = (id: string) => app.call('POST', app.path(id, '/oauth/start'))
  const record = async (id: string) => (await app.call('GET', app.path(id))).body

  test('a person authorizes with dynamic registration and PKCE; the record, the test and calls then work', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth', scopes: ['tools:read'] } })
    expect((await record(id)).config.auth).toEqual({ type: 'oauth', grant: 'authorization_code', client_id: null, client_secret: null, scopes: ['tools:read'], status: 'needs_authorization', token_expires_at: null })

    const before = await app.test(id)
    expect(before.body).toMatchObject({ ok: false, failure: { kind: 'unauthorized', needs_authorization: true } })
    expect(before.body.failure.message).toContain('oauth/start')

    const started = await start(id)
    expect(started.status).toBe(200)
    const url = new URL(started.body.authorization_url)
    expect(url.origin + url.pathname).toBe(`${as.origin}/authorize`)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: CALLBACK,
      resource: mcp.url,
      scope: 'tools:read',
      client_id: expect.stringMatching(/^dyn-/),
      state: expect.stringMatching(/^[0-9A-Za-z]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    })
    expect(as.counters.registrations).toBe(1)

    const back = await authorizeInBrowser(app, started.body.authorization_url)
    expect(back.status).toBe(200)
    expect(back.headers.get('content-type')).toContain('text/html')
    expect(back.text).toContain('You can close this page')
    expect(as.counters.tokens.authorization_code).toBe(1)
    expect(as.counters.resources.at(-1)).toBe(mcp.url)

    const auth = (await record(id)).config.auth
    expect(auth.status).toBe('authorized')
    expect(Date.parse(auth.token_expires_at)).toBeGreaterThan(Date.now() + 3_000_000)

    const tested = await app.test(id)
    expect(tested.body).toMatchObject({ ok: true, server: { name: 'parley-test-tools' } })
    const called = await app.callTool(id, 'echo', { text: 'with a token' })
    expect(called.status).toBe(200)
    expect(called.body.content).toEqual([{ type: 'text', text: 'with a token' }])

    // The same state does not work twice.
    const replay = await app.call('GET', `/oauth/mcp/callback?state=${url.searchParams.get('state')}&code=x`, { key: null })
    expect(replay.status).toBe(400)
    expect(replay.body.code).toBe('invalid_state')
  })

  test('tokens, the registered client, the state and the code never leave through the API or the logs', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    const started = await start(id)
    const state = new URL(started.body.authorization_url).searchParams.get('state') as string
    const atServer = await fetch(started.body.authorization_url, { redirect: 'manual' })
    const back = new URL(atServer.headers.get('location') as string)
    const code = back.searchParams.get('code') as string
    expect((await app.call('GET', back.pathname + back.search, { key: null })).status).toBe(200)
    await app.callTool(id, 'echo', { text: 'x' })

    const stored = app.db.query<{ tokens: string; client: string }, [string]>('SELECT tokens, client FROM mcp_oauth_grants WHERE integration_id = ?').get(id)
    const tokens = JSON.parse(stored?.tokens as string)
    const client = JSON.parse(stored?.client as string)
    const secrets = [tokens.access_token, tokens.refresh_token, client.client_secret, state, code]
    for (const secret of secrets) expect(typeof secret).toBe('string')
    // The state is kept only as its digest.
    expect(JSON.stringify(app.db.query('SELECT * FROM mcp_oauth_states').all())).not.toContain(state)

    const answers = [await app.call('GET', app.path(id)), await app.call('GET', `/api/dev/v1/chatbots/${await app.chatbot()}/integrations`), await app.test(id), await app.tools(id)]
    const seen = answers.map((answer) => answer.text).join('\n') + app.logLines.join('\n')
    for (const secret of secrets) expect(seen).not.toContain(secret)
  })

  test('an access token close to its expiry is refreshed before it is sent', async () => {
    as.setExpiresIn(30) // under Parley's one-minute margin: every use refreshes first
    try {
      const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
      expect((await authorizeInBrowser(app, (await start(id)).body.authorization_url)).status).toBe(200)
      const refreshed = as.counters.tokens.refresh_token
      const refused = mcp.counters.refusedTokens
      const called = await app.callTool(id, 'echo', { text: 'fresh' })
      expect(called.status).toBe(200)
      expect(as.counters.tokens.refresh_token).toBeGreaterThan(refreshed)
      // Refreshed ahead: the server never saw a stale token.
      expect(mcp.counters.refusedTokens).toBe(refused)
      expect((await record(id)).config.auth.status).toBe('authorized')
    } finally {
      as.setExpiresIn(3600)
    }
  })

  test('a refresh the authorization server refuses leaves the record and the test at needs_authorization', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    expect((await authorizeInBrowser(app, (await start(id)).body.authorization_url)).status).toBe(200)
    expect((await app.callTool(id, 'echo', { text: 'ok' })).status).toBe(200)
    as.revokeAll()
    const refused = as.counters.refused.length
    const failed = await app.callTool(id, 'echo', { text: 'after revocation' })
    expect(failed.status).toBe(502)
    expect(as.counters.refused.slice(refused)).toContain('invalid_grant')
    expect((await record(id)).config.auth).toMatchObject({ status: 'needs_authorization', token_expires_at: null })
    expect((await app.test(id)).body).toMatchObject({ ok: false, failure: { kind: 'unauthorized', needs_authorization: true } })
    // Authorizing again recovers.
    expect((await authorizeInBrowser(app, (await start(id)).body.authorization_url)).status).toBe(200)
    expect((await app.callTool(id, 'echo', { text: 'again' })).status).toBe(200)
  })

  test('an authorization server that is down during a refresh does not cost the refresh token: the next call refreshes', async () => {
    as.setExpiresIn(30) // every use refreshes first
    try {
      const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
      expect((await authorizeInBrowser(app, (await start(id)).body.authorization_url)).status).toBe(200)
      as.failTokenRequests(5)
      await app.callTool(id, 'echo', { text: 'during the outage' })
      expect((await record(id)).config.auth.status).toBe('authorized')
      as.failTokenRequests(0)
      const refreshed = as.counters.tokens.refresh_token
      expect((await app.callTool(id, 'echo', { text: 'after the outage' })).status).toBe(200)
      expect(as.counters.tokens.refresh_token).toBeGreaterThan(refreshed)
    } finally {
      as.failTokenRequests(0)
      as.setExpiresIn(3600)
    }
  })

  test('client_credentials: Parley gets its token itself, machine to machine; no person, no oauth/start', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth', grant: 'client_credentials', client_id: MACHINE.client_id, client_secret: MACHINE.client_secret, scopes: ['tools:call'] } })
    expect((await record(id)).config.auth).toEqual({ type: 'oauth', grant: 'client_credentials', client_id: MACHINE.client_id, client_secret: '••••Qwer', scopes: ['tools:call'], status: 'not_connected', token_expires_at: null })
    const granted = as.counters.tokens.client_credentials
    expect((await app.test(id)).body).toMatchObject({ ok: true })
    expect(as.counters.tokens.client_credentials).toBe(granted + 1)
    expect((await record(id)).config.auth.status).toBe('authorized')
    expect((await app.callTool(id, 'echo', { text: 'm2m' })).status).toBe(200)
    // A revoked token is replaced by a new grant, without anyone.
    as.revokeAll()
    expect((await app.callTool(id, 'echo', { text: 'm2m again' })).status).toBe(200)
    expect(as.counters.tokens.client_credentials).toBe(granted + 2)
    const refused = await start(id)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('not_oauth')
  })

  test("the integration's scopes are asked for rather than the server's scopes_supported; without them, the server's", async () => {
    const named = await app.integration({ url: mcp.url, auth: { type: 'oauth', scopes: ['tools:call', 'tools:read'] } })
    expect(new URL((await start(named)).body.authorization_url).searchParams.get('scope')).toBe('tools:call tools:read')
    const unnamed = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    expect(new URL((await start(unnamed)).body.authorization_url).searchParams.get('scope')).toBe('tools:read')
  })

  test('a pre-registered client id is used as given, without registering', async () => {
    const registrations = as.counters.registrations
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth', client_id: PRE.client_id, client_secret: PRE.client_secret } })
    const started = await start(id)
    expect(new URL(started.body.authorization_url).searchParams.get('client_id')).toBe(PRE.client_id)
    expect((await authorizeInBrowser(app, started.body.authorization_url)).status).toBe(200)
    expect(as.counters.registrations).toBe(registrations)
    expect((await app.test(id)).body.ok).toBe(true)
  })

  test('the PKCE verifier decides: a code exchanged with another verifier gets no tokens', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    const started = await start(id)
    app.db.run("UPDATE mcp_oauth_states SET code_verifier = 'not-the-verifier-of-this-challenge-000000000000' WHERE integration_id = ?", [id])
    const back = await authorizeInBrowser(app, started.body.authorization_url)
    expect(back.status).toBe(502)
    expect(back.body.code).toBe('oauth_failed')
    expect(as.counters.refused.at(-1)).toBe('invalid_grant')
    expect((await record(id)).config.auth.status).toBe('needs_authorization')
  })

  test('a refusal, an expired or unknown state, and a state from before a change of auth are clear 400s', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    as.denyNext()
    const denied = await authorizeInBrowser(app, (await start(id)).body.authorization_url)
    expect(denied.status).toBe(400)
    expect(denied.body).toMatchObject({ code: 'authorization_denied', detail: expect.stringContaining('access_denied') })

    const expiring = await start(id)
    app.db.run('UPDATE mcp_oauth_states SET expires_at = 0 WHERE integration_id = ?', [id])
    expect((await authorizeInBrowser(app, expiring.body.authorization_url)).body.code).toBe('invalid_state')

    const missing = await app.call('GET', '/oauth/mcp/callback?code=abc', { key: null })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('invalid_state')

    const stale = await start(id)
    expect((await app.call('PATCH', app.path(id), { body: { auth: { type: 'oauth', scopes: ['tools:call'] } } })).status).toBe(200)
    const afterChange = await authorizeInBrowser(app, stale.body.authorization_url)
    expect(afterChange.status).toBe(400)
    expect(afterChange.body.detail).toContain('changed')
  })

  test('a callback that repeats a parameter is refused and does not use the state up', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    const started = await start(id)
    const state = new URL(started.body.authorization_url).searchParams.get('state') as string
    for (const query of [`state=${state}&state=${state}&code=x`, `state=${state}&state=someone-elses&code=x`, `state=${state}&code=x&code=y`]) {
      const repeated = await app.call('GET', `/oauth/mcp/callback?${query}`, { key: null })
      expect(repeated.status).toBe(422)
      expect(repeated.body.code).toBe('validation_failed')
      expect(repeated.body.errors[0].message).toContain('more than once')
    }
    // The state is still good for the person's own callback.
    expect((await authorizeInBrowser(app, started.body.authorization_url)).status).toBe(200)
    expect((await record(id)).config.auth.status).toBe('authorized')
  })

  test('changing the url or auth retires the tokens', async () => {
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    expect((await authorizeInBrowser(app, (await start(id)).body.authorization_url)).status).toBe(200)
    expect((await record(id)).config.auth.status).toBe('authorized')
    await app.call('PATCH', app.path(id), { body: { auth: { type: 'oauth', scopes: ['tools:read'] } } })
    expect((await record(id)).config.auth.status).toBe('needs_authorization')
  })

  test('an authorization server on an address Parley may not reach is refused before any request goes there', async () => {
    const id = await app.integration({ url: blockedAs.url, auth: { type: 'oauth' } })
    const started = await start(id)
    expect(started.status).toBe(502)
    expect(started.body.code).toBe('oauth_failed')
    expect(started.body.detail).toContain('(dns)')
    expect(started.body.detail).toContain('rebind.test does not resolve to an address Parley may reach')
    expect(started.body.detail).not.toContain('10.1.2.3')
  })

  test('oauth/start on another auth type answers 409, and for another workspace 404', async () => {
    const plain = await app.integration({ url: mcp.url })
    expect((await start(plain)).body.code).toBe('not_oauth')
    const id = await app.integration({ url: mcp.url, auth: { type: 'oauth' } })
    const other = await app.call('POST', app.path(id, '/oauth/start'), { key: app.otherWorkspaceKey() })
    expect(other.status).toBe(404)
  })
})
