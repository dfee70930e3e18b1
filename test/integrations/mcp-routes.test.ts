import { expect } from 'bun:test'
import { announcedInProcess, type Scenario, scenarios } from '../support/scenarios.ts'
import { ISO_MS, type IntegrationContext, integrationContext, integrationsOf, loggedText, MISSING_ID, outcomeRow, ULID } from './support/integration-context.ts'

interface Ctx extends IntegrationContext {
  changed: unknown[]
  removed: unknown[]
}
type Row = Scenario<Ctx>

const mcpOf = (botId: string, rest = '') => integrationsOf(botId, `/mcp${rest}`)
const TOKEN = 'mcp-bearer-token-0123456789-QwEr'
const HEADER_VALUE = 'header-secret-value-98765-Zx9y'
const CLIENT_SECRET = 'oauth-client-secret-abcdef-7Lk2'
const SECRETS = [TOKEN, HEADER_VALUE, CLIENT_SECRET]
const URL_OK = 'https://tools.example.com/mcp'

let counter = 0
/** A valid create body with a name no other row uses, and `extra` merged over it. */
const body = (extra: Record<string, unknown> = {}) => ({ name: `tools-${++counter}`, url: URL_OK, ...extra })

function create(name: string, extra: Record<string, unknown>, outcome: number | string[], check?: Row['check']): Row {
  return outcomeRow('POST', (c) => mcpOf(c.botId), name, () => body(extra), outcome, check as never) as Row
}
const url = (name: string, value: unknown, outcome: number | string[], check?: Row['check']) => create(name, { url: value }, outcome, check)
const auth = (name: string, value: unknown, outcome: number | string[], check?: Row['check']) => create(name, { auth: value }, outcome, check)
const tools = (name: string, value: unknown, outcome: number | string[], check?: Row['check']) => create(name, { tools: value }, outcome, check)
const timeout = (name: string, value: unknown, outcome: number | string[]) => create(name, { timeout_ms: value }, outcome)
function patch(name: string, patchBody: unknown, outcome: number | string[], check?: Row['check']): Row {
  return outcomeRow('PATCH', (c) => mcpOf(c.botId, `/${c.saved.first.id}`), name, patchBody, outcome, check as never) as Row
}
const refusedBecause = (text: string): Row['check'] => ({ body }) => expect(body.errors[0].message).toContain(text)
const noSecretIn = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret)
}

scenarios<Ctx>(
  'mcp integrations: create, read, change, delete',
  async (app) => {
    const base = await integrationContext(app, 4)
    const changed: unknown[] = []
    const removed: unknown[] = []
    app.events.on('integration.changed', (event) => changed.push(event))
    app.events.on('integration.removed', (event) => removed.push(event))
    const theirs = await app.call('POST', mcpOf(base.otherBotId), { key: base.otherKey, body: { name: 'theirs', url: URL_OK } })
    return { ...base, changed, removed, saved: { theirs: theirs.body.id } }
  },
  [
    {
      name: 'creating answers 201 with the whole record, every secret masked',
      method: 'POST',
      path: (c) => mcpOf(c.botId),
      body: { name: 'orders', url: URL_OK, transport: 'streamable-http', auth: { type: 'bearer', token: TOKEN }, tools: { allow: ['find', 'status'], deny: ['delete'] }, timeout_ms: 45_000 },
      status: 201,
      check: ({ body, text }, c) => {
        expect(body).toEqual({
          id: expect.stringMatching(ULID),
          chatbot_id: c.botId,
          type: 'mcp',
          name: 'orders',
          is_active: true,
          config: {
            url: URL_OK,
            transport: 'streamable-http',
            auth: { type: 'bearer', token: '••••QwEr' },
            tools: { allow: ['find', 'status'], deny: ['delete'] },
            timeout_ms: 45_000,
          },
          created_at: expect.stringMatching(ISO_MS),
          updated_at: null,
        })
        noSecretIn(text)
        c.saved.first = body
      },
    },
    create('only name and url are required; the rest has defaults', {}, 201, ({ body }, c) => {
      c.saved.otherName = body.name
      expect(body.is_active).toBe(true)
      expect(body.config).toEqual({ url: URL_OK, transport: 'auto', auth: { type: 'none' }, tools: { allow: null, deny: [] }, timeout_ms: 30_000 })
    }),
    create('name is required', { name: undefined }, ['/name']),
    create('name must not be empty', { name: '' }, ['/name']),
    create('name may not hold spaces', { name: 'my tools' }, ['/name'], refusedBecause('letters, digits, underscores or hyphens')),
    create('name may not start with a hyphen', { name: '-tools' }, ['/name']),
    create('name may not hold dots (it prefixes tool names)', { name: 'a.b' }, ['/name']),
    create('name may have 40 characters', { name: `n${'x'.repeat(38)}9` }, 201),
    create('name may not have 41 characters', { name: 'n'.repeat(41) }, ['/name']),
    create('name must be a string', { name: 7 }, ['/name']),
    {
      name: 'a second mcp integration named alike (ignoring case) answers 409 name_taken at /name',
      method: 'POST',
      path: (c) => mcpOf(c.botId),
      body: { name: 'ORDERS', url: 'https://other.example.com/mcp' },
      status: 409,
      code: 'name_taken',
      errorPaths: ['/name'],
    },
    {
      name: 'the name is decided before the value rules, as integration_exists is',
      method: 'POST',
      path: (c) => mcpOf(c.botId),
      body: { name: 'orders', url: 'http://127.0.0.1/mcp' },
      status: 409,
      code: 'name_taken',
    },
    {
      name: 'the same name on another chatbot is fine',
      method: 'POST',
      path: (c) => mcpOf(c.fresh()),
      body: { name: 'orders', url: URL_OK },
      status: 201,
    },
    url('url is required', undefined, ['/url']),
    url('url takes http', 'http://tools.example.com/mcp', 201),
    url('url takes a port, a path and a query', 'https://tools.example.com:8443/v1/mcp?tenant=7', 201),
    url('url takes a public IP address', 'https://93.184.215.14/mcp', 201),
    url('url may be 2048 characters', `https://example.com/${'p'.repeat(2048 - 20)}`, 201),
    url('url may not be 2049 characters', `https://example.com/${'p'.repeat(2049 - 20)}`, ['/url']),
    url('url must be a string', 42, ['/url']),
    url('url must not be empty', '', ['/url']),
    url('url must be absolute', '/mcp', ['/url'], refusedBecause('must be an absolute URL')),
    url('url must use http or https', 'ws://tools.example.com/mcp', ['/url'], refusedBecause('must use http or https')),
    url('url must not carry credentials', 'https://user:pass@tools.example.com/', ['/url'], refusedBecause('user name or password')),
    url('url must not contain spaces', 'https://tools.example.com/a b', ['/url'], refusedBecause('spaces')),
    url('url must not point to loopback', 'http://127.0.0.1:3001/mcp', ['/url'], refusedBecause('a loopback address')),
    url('url must not point to localhost', 'http://localhost:3001/mcp', ['/url'], refusedBecause('a local host name')),
    url('url must not point to a private network', 'http://10.0.0.5/mcp', ['/url'], refusedBecause('a private address')),
    url('url must not point to cloud metadata', 'http://169.254.169.254/latest/', ['/url'], refusedBecause('link-local')),
    url('url must not point to IPv6 loopback', 'http://[::1]/mcp', ['/url']),
    url('url must not hide loopback in IPv6', 'http://[::ffff:127.0.0.1]/mcp', ['/url'], refusedBecause('IPv4-mapped')),
    create('transport auto', { transport: 'auto' }, 201),
    create('transport sse', { transport: 'sse' }, 201, ({ body }) => expect(body.config.transport).toBe('sse')),
    create('transport must be one of auto, streamable-http, sse', { transport: 'websocket' }, ['/transport'], refusedBecause('"auto", "streamable-http", "sse"')),
    auth('auth none', { type: 'none' }, 201),
    auth('auth type must be known', { type: 'basic' }, ['/auth/type']),
    auth('auth needs a type', { token: TOKEN }, ['/auth/type']),
    auth('auth refuses unknown fields', { type: 'none', password: 'x' }, ['/auth/password']),
    auth('bearer needs its token', { type: 'bearer' }, ['/auth/token'], refusedBecause('required with type bearer')),
    auth('a bearer token must be printable ASCII', { type: 'bearer', token: 'line\nbreak' }, ['/auth/token']),
    auth('a bearer token is masked alone when short', { type: 'bearer', token: 'short' }, 201, ({ body }) => expect(body.config.auth).toEqual({ type: 'bearer', token: '••••' })),
    auth('none takes no token', { type: 'none', token: TOKEN }, ['/auth/token'], refusedBecause('not used with type none')),
    auth('bearer takes no headers', { type: 'bearer', token: TOKEN, headers: { 'X-Key': 'v' } }, ['/auth/headers']),
    auth('headers: every value masked, names kept', { type: 'headers', headers: { 'X-Api-Key': HEADER_VALUE, Authorization: `Basic ${HEADER_VALUE}` } }, 201, ({ body, text }) => {
      expect(body.config.auth).toEqual({ type: 'headers', headers: { 'X-Api-Key': '••••Zx9y', Authorization: '••••Zx9y' } })
      noSecretIn(text)
    }),
    auth('headers needs at least one header', { type: 'headers', headers: {} }, ['/auth/headers']),
    auth('headers needs its headers', { type: 'headers' }, ['/auth/headers']),
    auth('a header name must be a token', { type: 'headers', headers: { 'X Key': 'v' } }, ['/auth/headers/X Key'], refusedBecause('not a valid header name')),
    auth('a header the transport sets cannot be configured', { type: 'headers', headers: { 'Mcp-Session-Id': 'v', Host: 'h' } }, ['/auth/headers/Mcp-Session-Id', '/auth/headers/Host']),
    auth('header names may not repeat ignoring case', { type: 'headers', headers: { 'X-Key': 'a', 'x-key': 'b' } }, ['/auth/headers/x-key']),
    auth('a header value may not hold a line break', { type: 'headers', headers: { 'X-Key': 'a\r\nX-Evil: 1' } }, ['/auth/headers/X-Key']),
    auth('at most 20 headers', { type: 'headers', headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, ['/auth/headers']),
    auth('oauth with dynamic registration', { type: 'oauth' }, 201, ({ body }) =>
      expect(body.config.auth).toEqual({ type: 'oauth', grant: 'authorization_code', client_id: null, client_secret: null, scopes: [], status: 'needs_authorization', token_expires_at: null }),
    ),
    auth('oauth with a pre-registered client: the secret is masked', { type: 'oauth', client_id: 'parley', client_secret: CLIENT_SECRET, scopes: ['tools:read', 'tools:read'] }, 201, ({ body, text }) => {
      expect(body.config.auth).toEqual({ type: 'oauth', grant: 'authorization_code', client_id: 'parley', client_secret: '••••7Lk2', scopes: ['tools:read'], status: 'needs_authorization', token_expires_at: null })
      noSecretIn(text)
    }),
    auth('oauth client_credentials: tokens come with the first connection, the secret masked', { type: 'oauth', grant: 'client_credentials', client_id: 'machine', client_secret: CLIENT_SECRET }, 201, ({ body, text }) => {
      expect(body.config.auth).toEqual({ type: 'oauth', grant: 'client_credentials', client_id: 'machine', client_secret: '••••7Lk2', scopes: [], status: 'not_connected', token_expires_at: null })
      noSecretIn(text)
    }),
    auth('oauth client_credentials needs a client_id and a client_secret', { type: 'oauth', grant: 'client_credentials' }, ['/auth/client_id', '/auth/client_secret'], refusedBecause('required with grant client_credentials')),
    auth('oauth client_credentials needs its client_secret', { type: 'oauth', grant: 'client_credentials', client_id: 'machine' }, ['/auth/client_secret']),
    auth('oauth grant must be authorization_code or client_credentials', { type: 'oauth', grant: 'password' }, ['/auth/grant']),
    auth('a grant is only for oauth', { type: 'bearer', token: TOKEN, grant: 'client_credentials' }, ['/auth/grant'], refusedBecause('not used with type bearer')),
    auth('oauth: a client_secret needs a client_id', { type: 'oauth', client_secret: CLIENT_SECRET }, ['/auth/client_secret']),
    auth('oauth takes no bearer token', { type: 'oauth', token: TOKEN }, ['/auth/token']),
    auth('oauth scopes are words without spaces', { type: 'oauth', scopes: ['a b'] }, ['/auth/scopes/0']),
    tools('tools.allow null offers every tool', { allow: null }, 201, ({ body }) => expect(body.config.tools).toEqual({ allow: null, deny: [] })),
    tools('tools.allow empty offers none', { allow: [] }, 201, ({ body }) => expect(body.config.tools.allow).toEqual([])),
    tools('tool names repeated are kept once', { allow: ['a', 'b', 'a'], deny: ['c', 'c'] }, 201, ({ body }) => expect(body.config.tools).toEqual({ allow: ['a', 'b'], deny: ['c'] })),
    tools('tools refuses unknown keys', { mode: 'all' }, ['/tools/mode']),
    tools('tools.allow must be a list or null', { allow: 'find' }, ['/tools/allow']),
    tools('tools.deny may not be null', { deny: null }, ['/tools/deny']),
    tools('a tool name may not be empty', { deny: [''] }, ['/tools/deny/0']),
    tools('a tool name may not hold control characters', { allow: ['ok', 'bad\u0000'] }, ['/tools/allow/1']),
    tools('a tool name may have 128 characters', { allow: ['t'.repeat(128)] }, 201),
    tools('a tool name may not have 129 characters', { allow: ['t'.repeat(129)] }, ['/tools/allow/0']),
    tools('at most 1000 names', { deny: Array.from({ length: 1001 }, (_, i) => `t${i}`) }, ['/tools/deny']),
    timeout('timeout_ms may be 1000', 1000, 201),
    timeout('timeout_ms may be 300000', 300_000, 201),
    timeout('timeout_ms may not be 999', 999, ['/timeout_ms']),
    timeout('timeout_ms may not be 300001', 300_001, ['/timeout_ms']),
    timeout('timeout_ms must be whole', 1500.5, ['/timeout_ms']),
    timeout('timeout_ms must be a number', '30000', ['/timeout_ms']),
    create('is_active may be false on create', { is_active: false }, 201, ({ body }) => expect(body.is_active).toBe(false)),
    create('unknown fields are refused', { headers: {} }, ['/headers']),
    create('every broken rule is named at once', { name: '', url: 7, timeout_ms: 0 }, ['/name', '/url', '/timeout_ms']),
    {
      name: 'malformed JSON answers 400',
      method: 'POST',
      path: (c) => mcpOf(c.botId),
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
      status: 400,
      code: 'malformed_json',
    },
    { name: 'a form body answers 415', method: 'POST', path: (c) => mcpOf(c.botId), rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
    { name: 'an array body answers 422 at the root', method: 'PATCH', path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`), body: [], status: 422, errorPaths: [''] },

    // many per chatbot, and reading them
    {
      name: 'many per chatbot: the list holds whole records, newest first, secrets masked',
      method: 'GET',
      path: (c) => mcpOf(c.botId, '?limit=200'),
      status: 200,
      check: ({ body, text }, c) => {
        expect(body.total).toBeGreaterThanOrEqual(20)
        expect(body.items).toHaveLength(body.total)
        expect(body.items.at(-1)).toEqual(c.saved.first)
        const times = body.items.map((item: { created_at: string }) => item.created_at)
        expect([...times].sort().reverse()).toEqual(times)
        expect(new Set(body.items.map((item: { name: string }) => item.name.toLowerCase())).size).toBe(body.total)
        noSecretIn(text)
        c.saved.count = body.total
      },
    },
    {
      name: 'the list pages with limit and offset',
      method: 'GET',
      path: (c) => mcpOf(c.botId, '?limit=2&offset=1'),
      status: 200,
      check: ({ body }, c) => {
        expect(body.total).toBe(c.saved.count)
        expect(body.items).toHaveLength(2)
      },
    },
    { name: 'the list refuses limit 0', method: 'GET', path: (c) => mcpOf(c.botId, '?limit=0'), status: 422, errorPaths: ['/limit'] },
    {
      name: 'the generic list carries the mcp integrations too',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, '?limit=200'),
      status: 200,
      check: ({ body }, c) => {
        expect(body.total).toBe(c.saved.count)
        expect(body.items.every((item: { type: string }) => item.type === 'mcp')).toBe(true)
      },
    },
    {
      name: 'GET by id answers the record',
      method: 'GET',
      path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`),
      status: 200,
      check: ({ body }, c) => expect(body).toEqual(c.saved.first),
    },
    {
      name: 'the generic GET by id answers the same record',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.saved.first.id}`),
      status: 200,
      check: ({ body }, c) => expect(body).toEqual(c.saved.first),
    },
    { name: 'an unknown id answers 404', method: 'GET', path: (c) => mcpOf(c.botId, `/${MISSING_ID}`), status: 404, code: 'not_found' },
    { name: 'a malformed id answers 404', method: 'GET', path: (c) => mcpOf(c.botId, '/nope'), status: 404, code: 'not_found' },

    // PATCH
    patch('an empty PATCH answers 200 and changes nothing', {}, 200, ({ body }, c) => {
      expect(body).toEqual(c.saved.first)
      announcedInProcess(c.app, () => expect(c.changed).toEqual([]))
    }),
    patch('sending the stored values changes nothing', { name: 'orders', transport: 'streamable-http', timeout_ms: 45_000 }, 200, ({ body }) => expect(body.updated_at).toBeNull()),
    patch('tools change key by key', { tools: { deny: ['delete', 'refund'] } }, 200, ({ body }, c) => {
      expect(body.config.tools).toEqual({ allow: ['find', 'status'], deny: ['delete', 'refund'] })
      expect(body.config.auth).toEqual(c.saved.first.config.auth)
      expect(body.updated_at).toMatch(ISO_MS)
      announcedInProcess(c.app, () =>
        expect(c.changed).toEqual([{ workspaceId: expect.any(String), chatbotId: c.botId, integrationId: c.saved.first.id, type: 'mcp', isActive: true }]),
      )
    }),
    patch('tools.allow null offers every tool again', { tools: { allow: null } }, 200, ({ body }) => expect(body.config.tools).toEqual({ allow: null, deny: ['delete', 'refund'] })),
    patch('auth is replaced whole', { auth: { type: 'headers', headers: { 'X-Api-Key': HEADER_VALUE } } }, 200, ({ body }) =>
      expect(body.config.auth).toEqual({ type: 'headers', headers: { 'X-Api-Key': '••••Zx9y' } }),
    ),
    patch('a PATCH checks url as a create does', { url: 'http://192.168.1.10/mcp' }, ['/url'], refusedBecause('a private address')),
    patch('a PATCH checks auth as a create does', { auth: { type: 'bearer' } }, ['/auth/token']),
    patch('a refused PATCH changed nothing', { name: 'orders' }, 200, ({ body }) => expect(body.config.auth.type).toBe('headers')),
    // Write-only secrets must not follow the url to a server whoever PATCHes chose: it would receive them on the next connection.
    patch('another url without auth is refused: the stored header values would be sent there', { url: 'https://collector.example.net/mcp' }, ['/auth'], refusedBecause('auth')),
    patch('plain http on the same host is refused too', { url: 'http://tools.example.com/mcp' }, ['/auth']),
    // Hosts that serve many people's MCP servers tell them apart by path.
    patch('another path on the same host is refused too', { url: 'https://tools.example.com/someone-else/mcp' }, ['/auth']),
    patch('the same url keeps auth', { url: URL_OK }, 200, ({ body }) => expect(body.config.auth).toEqual({ type: 'headers', headers: { 'X-Api-Key': '••••Zx9y' } })),
    patch('another url moves with auth given again', { url: 'https://tools.example.org/mcp', auth: { type: 'headers', headers: { 'X-Api-Key': HEADER_VALUE } } }, 200, ({ body }) =>
      expect(body.config.url).toBe('https://tools.example.org/mcp'),
    ),
    patch('and back, auth given again', { url: URL_OK, auth: { type: 'headers', headers: { 'X-Api-Key': HEADER_VALUE } } }, 200, ({ body }) => expect(body.config.url).toBe(URL_OK)),
    patch('name may change its case', { name: 'Orders' }, 200, ({ body }) => expect(body.name).toBe('Orders')),
    {
      name: "a PATCH to another integration's name answers 409 name_taken",
      method: 'PATCH',
      path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`),
      body: (c: Ctx) => ({ name: c.saved.otherName.toUpperCase() }),
      status: 409,
      code: 'name_taken',
      errorPaths: ['/name'],
    },
    patch('is_active false switches it off and says so', { is_active: false }, 200, ({ body }, c) => {
      expect(body.is_active).toBe(false)
      announcedInProcess(c.app, () => expect(c.changed.at(-1)).toMatchObject({ integrationId: c.saved.first.id, isActive: false }))
    }),
    patch('a PATCH refuses unknown fields', { type: 'web' }, ['/type']),
    patch('a PATCH refuses null where a value is needed', { url: null, timeout_ms: null }, ['/url', '/timeout_ms']),
    {
      name: 'PATCH of an unknown id answers 404',
      method: 'PATCH',
      path: (c) => mcpOf(c.botId, `/${MISSING_ID}`),
      body: { name: 'x' },
      status: 404,
    },

    // tenancy
    { name: "another workspace's mcp integration under my chatbot answers 404", method: 'GET', path: (c) => mcpOf(c.botId, `/${c.saved.theirs}`), status: 404 },
    { name: "another workspace's chatbot answers 404 on create", method: 'POST', path: (c) => mcpOf(c.otherBotId), body: () => body(), status: 404 },
    { name: "another workspace's chatbot answers 404 on list", method: 'GET', path: (c) => mcpOf(c.otherBotId), status: 404 },
    { name: "another workspace's integration answers 404 on get", method: 'GET', path: (c) => mcpOf(c.otherBotId, `/${c.saved.theirs}`), status: 404 },
    { name: "another workspace's integration answers 404 on PATCH", method: 'PATCH', path: (c) => mcpOf(c.otherBotId, `/${c.saved.theirs}`), body: { is_active: false }, status: 404 },
    { name: "another workspace's integration answers 404 on DELETE", method: 'DELETE', path: (c) => mcpOf(c.otherBotId, `/${c.saved.theirs}`), status: 404 },
    { name: "another workspace's integration answers 404 on oauth/start", method: 'POST', path: (c) => mcpOf(c.otherBotId, `/${c.saved.theirs}/oauth/start`), status: 404, code: 'not_found' },
    { name: 'the OAuth callback without a state answers 400 invalid_state, without a key', method: 'GET', path: () => '/oauth/mcp/callback?code=abc', key: null, status: 400, code: 'invalid_state' },
    { name: 'the OAuth callback with an unknown state answers 400 invalid_state', method: 'GET', path: () => '/oauth/mcp/callback?state=nope&code=abc', key: null, status: 400, code: 'invalid_state' },
    { name: 'my integration answers 404 to the other workspace', method: 'GET', path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`), key: (c) => c.otherKey, status: 404 },
    { name: 'an unknown chatbot answers 404', method: 'GET', path: () => mcpOf(MISSING_ID), status: 404 },
    {
      name: "the other workspace's integration is untouched",
      method: 'GET',
      path: (c) => mcpOf(c.otherBotId, `/${c.saved.theirs}`),
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ name: 'theirs', is_active: true, updated_at: null }),
    },
    {
      name: 'an integration of another type is not an mcp integration',
      method: 'POST',
      path: (c) => integrationsOf(c.botId, '/web'),
      body: { name: 'Website' },
      status: 201,
      check: async ({ body }, c) => {
        const asMcp = await c.app.call('GET', mcpOf(c.botId, `/${body.id}`))
        expect(asMcp.status).toBe(404)
        expect((await c.app.call('DELETE', mcpOf(c.botId, `/${body.id}`))).status).toBe(404)
      },
    },

    // delete
    {
      name: 'DELETE answers 204 and announces the removal',
      method: 'DELETE',
      path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`),
      status: 204,
      check: ({ text }, c) => {
        expect(text).toBe('')
        announcedInProcess(c.app, () => expect(c.removed).toEqual([{ workspaceId: expect.any(String), chatbotId: c.botId, integrationId: c.saved.first.id, type: 'mcp' }]))
      },
    },
    { name: 'after the delete it answers 404', method: 'GET', path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`), status: 404 },
    { name: 'deleting twice answers 404', method: 'DELETE', path: (c) => mcpOf(c.botId, `/${c.saved.first.id}`), status: 404 },
    {
      name: 'after the delete its name is free again',
      method: 'POST',
      path: (c) => mcpOf(c.botId),
      body: { name: 'orders', url: URL_OK },
      status: 201,
      check: ({ body }, c) => {
        c.saved.again = body.id
      },
    },
    {
      name: 'the generic DELETE removes an mcp integration too',
      method: 'DELETE',
      path: (c) => integrationsOf(c.botId, `/${c.saved.again}`),
      status: 204,
    },
    {
      name: 'no secret appears in any log line',
      method: 'GET',
      path: (c) => mcpOf(c.botId),
      status: 200,
      check: async (_, c) => {
        const logged = await loggedText(c.app)
        expect(logged).toContain('/integrations/mcp')
        noSecretIn(logged)
      },
    },
  ],
)

scenarios<Ctx>(
  'mcp integrations with PARLEY_OUTBOUND_ALLOW',
  async (app) => ({ ...(await integrationContext(app, 0)), changed: [], removed: [] }),
  [
    url('an allowed single address may be loopback', 'http://127.0.0.1:3001/mcp', 201),
    url('an allowed host name may be local', 'http://tools.internal:8080/mcp', 201),
    url('other loopback addresses stay refused', 'http://127.0.0.2/mcp', ['/url']),
  ],
  { PARLEY_OUTBOUND_ALLOW: 'tools.internal,127.0.0.1' },
)
