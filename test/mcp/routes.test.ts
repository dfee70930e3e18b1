import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { closedPort, htmlServer, type RunningMcpServer, silentServer, sseServer, streamableServer } from './support/mcp-servers.ts'
import { type McpApp, mcpApp } from './support/mcp-app.ts'

const TOKEN = 'test-bearer-token-0123456789-Abcd'
const TENANT = 'tenant-secret-header-value-Wxyz'
const cert = await Bun.file(new URL('../outbox/fixtures/receiver-test.cert.pem', import.meta.url)).text()
const key = await Bun.file(new URL('../outbox/fixtures/receiver-test.key.pem', import.meta.url)).text()

/** Polls until `condition` holds (a notification crossing a socket), or fails after 3 s. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (await condition()) return
    await Bun.sleep(20)
  }
  throw new Error('the condition never held')
}

describe('mcp servers over every transport: test, tools, call', () => {
  let app: McpApp
  const servers: RunningMcpServer[] = []
  let stateful: RunningMcpServer
  let stateless: RunningMcpServer
  let legacy: RunningMcpServer
  let guarded: RunningMcpServer
  let many: RunningMcpServer
  const ids = {} as Record<'stateful' | 'stateless' | 'legacyAuto' | 'legacyForced' | 'streamableAtSse' | 'bearer' | 'wrongToken' | 'many', string>

  beforeAll(async () => {
    app = mcpApp({ connectTimeoutMs: 1500, outputLimit: 2000 })
    stateful = await streamableServer()
    stateless = await streamableServer({ stateful: false })
    legacy = await sseServer()
    guarded = await streamableServer({ requireHeaders: { authorization: `Bearer ${TOKEN}`, 'x-tenant': TENANT } })
    many = await streamableServer({ extraTools: 600, pageSize: 100 })
    servers.push(stateful, stateless, legacy, guarded, many)
    ids.stateful = await app.integration({ url: stateful.url })
    ids.stateless = await app.integration({ url: stateless.url })
    ids.legacyAuto = await app.integration({ url: legacy.url })
    ids.legacyForced = await app.integration({ url: legacy.url, transport: 'sse' })
    ids.streamableAtSse = await app.integration({ url: legacy.url, transport: 'streamable-http' })
    ids.bearer = await app.integration({ url: guarded.url, auth: { type: 'headers', headers: { Authorization: `Bearer ${TOKEN}`, 'X-Tenant': TENANT } } })
    ids.wrongToken = await app.integration({ url: guarded.url, auth: { type: 'bearer', token: 'not-the-right-token-000' } })
    ids.many = await app.integration({ url: many.url, tools: { allow: ['echo', 'tool_0599', 'tool_0003'], deny: ['tool_0599'] } })
  })
  afterAll(async () => {
    await app.close()
    for (const server of servers) await server.stop()
  })

  test('stateful streamable HTTP: the test initializes, lists every tool and says what it found', async () => {
    const { status, body } = await app.test(ids.stateful)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      ok: true,
      transport_used: 'streamable-http',
      protocol_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      server: { name: 'parley-test-tools', version: '1.2.3' },
      capabilities: { tools: { listChanged: true } },
    })
    expect(body.latency_ms).toBeGreaterThan(0)
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'add', 'slow', 'fail', 'big', 'orders.find', 'delete_everything'])
    expect(body.tools[0]).toEqual({
      name: 'echo',
      title: 'Echo',
      description: 'Says the text back',
      input_schema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
      annotations: { readOnlyHint: true },
      allowed: true,
    })
    expect(stateful.counters.lastHeaders['user-agent']).toStartWith('Parley/')
  })

  test('a call answers the content blocks, is_error and latency_ms, on the tested connection (no second initialize)', async () => {
    const { status, body } = await app.callTool(ids.stateful, 'echo', { text: 'hello' })
    expect(status).toBe(200)
    expect(body).toEqual({ content: [{ type: 'text', text: 'hello' }], structured_content: null, is_error: false, truncated: false, latency_ms: expect.any(Number) })
    await app.callTool(ids.stateful, 'add', { a: 2, b: 3 })
    const added = await app.callTool(ids.stateful, 'add', { a: 2, b: 40 })
    expect(added.body).toMatchObject({ content: [{ type: 'text', text: '42' }], structured_content: { sum: 42 } })
    expect(stateful.counters.initializations).toBe(1)
    expect(stateful.counters.toolCalls).toBe(3)
  })

  test('a tool with dots in its name is called by its URL-encoded name', async () => {
    const { status, body } = await app.callTool(ids.stateful, 'orders.find', {})
    expect(status).toBe(200)
    expect(body.content).toEqual([{ type: 'text', text: 'called orders.find' }])
  })

  test('a tool that reports an error answers 200 with is_error true', async () => {
    const { status, body } = await app.callTool(ids.stateful, 'fail', {})
    expect(status).toBe(200)
    expect(body).toMatchObject({ is_error: true, content: [{ type: 'text', text: 'the order system is down' }] })
  })

  test('a server that restarts mid-session is re-initialized and the call retried once, transparently', async () => {
    const before = { ...stateful.counters }
    await stateful.restart()
    const { status, body } = await app.callTool(ids.stateful, 'echo', { text: 'after the restart' })
    expect(status).toBe(200)
    expect(body.content).toEqual([{ type: 'text', text: 'after the restart' }])
    expect(stateful.counters.initializations).toBe(before.initializations + 1)
    // The first attempt reached no tool (the session was unknown): the tool ran once.
    expect(stateful.counters.toolCalls).toBe(before.toolCalls + 1)
  })

  test('stateless streamable HTTP works the same, without sessions', async () => {
    expect((await app.test(ids.stateless)).body).toMatchObject({ ok: true, transport_used: 'streamable-http' })
    const { body } = await app.callTool(ids.stateless, 'echo', { text: 'stateless' })
    expect(body.content).toEqual([{ type: 'text', text: 'stateless' }])
  })

  test('auto falls back to the legacy HTTP+SSE transport for an old server', async () => {
    const { body } = await app.test(ids.legacyAuto)
    expect(body).toMatchObject({ ok: true, transport_used: 'sse', server: { name: 'parley-test-tools' } })
    expect((await app.callTool(ids.legacyAuto, 'echo', { text: 'over sse' })).body.content).toEqual([{ type: 'text', text: 'over sse' }])
  })

  test('transport sse goes straight to the legacy transport', async () => {
    expect((await app.test(ids.legacyForced)).body).toMatchObject({ ok: true, transport_used: 'sse' })
  })

  test('a legacy server restarted mid-session is reconnected on the next call', async () => {
    await app.callTool(ids.legacyForced, 'echo', { text: 'first' })
    const before = legacy.counters.initializations
    await legacy.restart()
    const { status, body } = await app.callTool(ids.legacyForced, 'echo', { text: 'second' })
    expect(status).toBe(200)
    expect(body.content).toEqual([{ type: 'text', text: 'second' }])
    expect(legacy.counters.initializations).toBe(before + 1)
  })

  test('transport streamable-http forced on an old SSE server is not_mcp', async () => {
    const { body } = await app.test(ids.streamableAtSse)
    expect(body).toMatchObject({ ok: false, failure: { kind: 'not_mcp', http_status: 405 } })
  })

  test('auth headers reach the server on every request', async () => {
    expect((await app.test(ids.bearer)).body).toMatchObject({ ok: true })
    await app.callTool(ids.bearer, 'echo', { text: 'authorized' })
    expect(guarded.counters.lastHeaders.authorization).toBe(`Bearer ${TOKEN}`)
    expect(guarded.counters.lastHeaders['x-tenant']).toBe(TENANT)
  })

  test('a refused token is unauthorized, with the WWW-Authenticate header and the protected-resource metadata', async () => {
    const { status, body } = await app.test(ids.wrongToken)
    expect(status).toBe(200)
    expect(body.ok).toBe(false)
    expect(body.failure).toEqual({
      kind: 'unauthorized',
      message: expect.stringContaining('HTTP 401'),
      http_status: 401,
      www_authenticate: `Bearer error="invalid_token", resource_metadata="http://127.0.0.1:${guarded.port}/.well-known/oauth-protected-resource/mcp"`,
      resource_metadata: { resource: `http://127.0.0.1:${guarded.port}/mcp`, authorization_servers: [`http://127.0.0.1:${guarded.port}/auth`], scopes_supported: ['tools:read'] },
    })
  })

  test('a call to a server that refuses the credentials answers 502 mcp_unavailable', async () => {
    const { status, body } = await app.callTool(ids.wrongToken, 'echo', { text: 'x' })
    expect(status).toBe(502)
    expect(body.code).toBe('mcp_unavailable')
    expect(body.detail).toContain('unauthorized')
  })

  test('500+ tools: every page is listed, and allow and deny are applied to the list', async () => {
    const { body } = await app.test(ids.many)
    expect(body.ok).toBe(true)
    expect(body.tools).toHaveLength(607)
    expect(many.counters.listCalls).toBe(7)
    const allowed = body.tools.filter((tool: { allowed: boolean }) => tool.allowed).map((tool: { name: string }) => tool.name)
    expect(allowed).toEqual(['echo', 'tool_0003'])
  })

  test('a denied tool is refused with 403 tool_not_allowed, even when it is also allowed', async () => {
    const before = many.counters.toolCalls
    const { status, body } = await app.callTool(ids.many, 'tool_0599', {})
    expect(status).toBe(403)
    expect(body.code).toBe('tool_not_allowed')
    expect(many.counters.toolCalls).toBe(before)
  })

  test('a tool outside the allow list is refused with 403, whether the server has it or not', async () => {
    expect((await app.callTool(ids.many, 'tool_0001', {})).status).toBe(403)
    expect((await app.callTool(ids.many, 'no_such_tool', {})).body.code).toBe('tool_not_allowed')
    expect((await app.callTool(ids.many, 'tool_0003', {})).status).toBe(200)
  })

  test('a tool the server does not list answers 404 tool_not_found', async () => {
    const { status, body } = await app.callTool(ids.stateful, 'no_such_tool', {})
    expect(status).toBe(404)
    expect(body.code).toBe('tool_not_found')
  })

  test('GET tools answers the last listing with when it was made, allowed applied', async () => {
    const { status, body } = await app.tools(ids.many)
    expect(status).toBe(200)
    expect(body.tools).toHaveLength(607)
    expect(body.listed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(body.tools.find((tool: { name: string }) => tool.name === 'tool_0599').allowed).toBe(false)
  })

  test('a changed allow list applies to the stored listing at once', async () => {
    const patched = await app.call('PATCH', app.path(ids.many), { body: { tools: { allow: null, deny: ['echo'] } } })
    expect(patched.status).toBe(200)
    const { body } = await app.tools(ids.many)
    expect(body.tools.filter((tool: { allowed: boolean }) => !tool.allowed).map((tool: { name: string }) => tool.name)).toEqual(['echo'])
    expect((await app.callTool(ids.many, 'tool_0001', {})).status).toBe(200)
    expect((await app.callTool(ids.many, 'echo', { text: 'x' })).status).toBe(403)
  })

  test('notifications/tools/list_changed makes the next read list the tools again', async () => {
    const first = (await app.tools(ids.stateless)).body.listed_at
    await app.callTool(ids.stateful, 'echo', { text: 'keep the session' })
    const firstStateful = (await app.tools(ids.stateful)).body.listed_at
    const lists = stateful.counters.listCalls
    await stateful.announceToolsChanged()
    await eventually(async () => (await app.tools(ids.stateful)).body.listed_at !== firstStateful)
    expect(stateful.counters.listCalls).toBe(lists + 1)
    // Without a notification nothing is listed again.
    expect((await app.tools(ids.stateless)).body.listed_at).toBe(first)
  })

  test('arguments are checked against the input schema before the call: 422 naming the path', async () => {
    const before = stateful.counters.toolCalls
    const missing = await app.callTool(ids.stateful, 'echo', {})
    expect(missing.status).toBe(422)
    expect(missing.body).toMatchObject({ code: 'validation_failed', errors: [{ path: '/arguments/text', message: 'is required' }] })
    const extra = await app.callTool(ids.stateful, 'echo', { text: 'x', loud: true })
    expect(extra.body.errors).toEqual([{ path: '/arguments/loud', message: 'is not an argument of this tool' }])
    const wrongType = await app.callTool(ids.stateful, 'add', { a: 'one', b: 2 })
    expect(wrongType.body.errors).toEqual([{ path: '/arguments/a', message: 'must be number' }])
    expect(stateful.counters.toolCalls).toBe(before)
  })

  test("a server's catastrophic pattern runs in linear time (RE2), and its mismatch is reported", async () => {
    const { status, body } = await app.callTool(ids.stateful, 'add', { a: 1, b: 2, tags: [`${'a'.repeat(5000)}!`] })
    expect(status).toBe(422)
    expect(body.errors[0].path).toBe('/arguments/tags/0')
  })

  test('an output over the size limit is cut in its middle, with a marker saying so', async () => {
    const { body } = await app.callTool(ids.stateful, 'big', { chars: 10_000 })
    expect(body.truncated).toBe(true)
    const text: string = body.content[0].text
    expect(text).toStartWith('H')
    expect(text).toEndWith('T')
    expect(text).toContain("[… 8000 characters of the tool's output cut by Parley …]")
    expect(text.length).toBeLessThan(2100)
  })

  test('the call body is checked: arguments must be an object, nothing else is accepted', async () => {
    const call = (body: unknown) => app.call('POST', app.path(ids.stateful, '/tools/echo/call'), { body })
    expect((await call({ arguments: 'text' })).body.errors[0].path).toBe('/arguments')
    expect((await call({ arguments: [] })).status).toBe(422)
    expect((await call({ args: {} })).body.errors[0].path).toBe('/args')
    const malformed = await app.call('POST', app.path(ids.stateful, '/tools/echo/call'), { rawBody: '{"arguments": ', headers: { 'content-type': 'application/json' } })
    expect(malformed.status).toBe(400)
  })

  test("another workspace's key gets 404 on test, tools and call", async () => {
    const other = app.otherWorkspaceKey()
    for (const [method, rest] of [['POST', '/test'], ['GET', '/tools'], ['POST', '/tools/echo/call']] as const) {
      const { status } = await app.call(method, app.path(ids.stateful, rest), { key: other, body: method === 'POST' ? {} : undefined })
      expect(status).toBe(404)
    }
    expect((await app.call('POST', app.path('01ARZ3NDEKTSV4RRFFQ69G5FAV', '/test'))).status).toBe(404)
  })

  test('no secret appears in any log line', async () => {
    await Bun.sleep(5)
    const logged = app.logLines.join('\n')
    expect(logged).toContain('/tools/echo/call')
    expect(logged).not.toContain(TOKEN)
    expect(logged).not.toContain(TENANT)
    expect(logged).not.toContain('not-the-right-token-000')
  })
})

describe('connection failures are classified so that a person can act on them', () => {
  let app: McpApp
  const stops: (() => unknown)[] = []
  beforeAll(() => {
    app = mcpApp({ connectTimeoutMs: 800 })
  })
  afterAll(async () => {
    await app.close()
    for (const stop of stops) await stop()
  })
  const failureOf = async (body: Record<string, unknown>) => {
    const { status, body: result } = await app.test(await app.integration(body))
    expect(status).toBe(200)
    expect(result.ok).toBe(false)
    return result.failure
  }

  test('nothing listening: refused', async () => {
    expect(await failureOf({ url: `http://127.0.0.1:${await closedPort()}/mcp` })).toMatchObject({ kind: 'refused', http_status: null })
  })

  test('a name that does not resolve: dns', async () => {
    expect(await failureOf({ url: 'http://nowhere.test/mcp' })).toMatchObject({ kind: 'dns', message: expect.stringContaining('nowhere.test') })
  })

  test('a name that resolves to a refused address when connecting: dns, as for a name that does not resolve, without the address', async () => {
    // Accepted at create (no DNS then); refused when its address is checked before connecting.
    const failure = await failureOf({ url: 'http://rebind.test:9/mcp' })
    const unknown = await failureOf({ url: 'http://nowhere.test:9/mcp' })
    const message = failure.message as string
    expect(failure.kind).toBe('dns')
    expect(message).toStartWith('the host rebind.test does not resolve to an address Parley may reach')
    expect(unknown).toEqual({ ...failure, message: message.replaceAll('rebind.test', 'nowhere.test') })
    expect(JSON.stringify(failure)).not.toContain('10.1.2.3')
  })

  test('an address Parley may not reach, written in the URL: blocked_address', async () => {
    const id = await app.integration({ url: 'http://receiver.test:9/mcp' })
    app.db.run("UPDATE integrations SET config = json_set(config, '$.url', 'http://10.1.2.3:9/mcp') WHERE id = ?", [id])
    const { body } = await app.test(id)
    expect(body.failure).toMatchObject({ kind: 'blocked_address', message: expect.stringContaining('points to 10.1.2.3, a private address') })
  })

  test('a page that is not an MCP server: not_mcp', async () => {
    const html = htmlServer()
    stops.push(html.stop)
    expect(await failureOf({ url: html.url })).toMatchObject({ kind: 'not_mcp', http_status: 200, message: expect.stringContaining('text/html') })
  })

  test('a path the server does not serve: not_mcp', async () => {
    const server = await streamableServer()
    stops.push(server.stop)
    expect(await failureOf({ url: server.url.replace('/mcp', '/wrong') })).toMatchObject({ kind: 'not_mcp', http_status: 404 })
  })

  test('a certificate Parley does not trust: tls', async () => {
    const tls = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: { cert, key }, fetch: () => new Response('') })
    stops.push(() => tls.stop(true))
    expect(await failureOf({ url: `https://receiver.test:${tls.port}/mcp` })).toMatchObject({ kind: 'tls' })
  })

  test('a server that accepts and never answers: timeout', async () => {
    const silent = silentServer()
    stops.push(silent.stop)
    expect(await failureOf({ url: silent.url, transport: 'streamable-http' })).toMatchObject({ kind: 'timeout' })
  })

  test('a slow tool is cut off at timeout_ms: 504 tool_timeout, and the connection still serves the next call', async () => {
    const server = await streamableServer()
    stops.push(server.stop)
    const id = await app.integration({ url: server.url, timeout_ms: 1000 })
    const slow = await app.callTool(id, 'slow', { ms: 10_000 })
    expect(slow.status).toBe(504)
    expect(slow.body).toMatchObject({ code: 'tool_timeout', detail: expect.stringContaining('1000 ms') })
    expect((await app.callTool(id, 'echo', { text: 'still here' })).body.content).toEqual([{ type: 'text', text: 'still here' }])
    expect(server.counters.initializations).toBe(1)
  })

  test('GET tools of a server that cannot be reached, never listed, answers 502', async () => {
    const id = await app.integration({ url: `http://127.0.0.1:${await closedPort()}/mcp` })
    const { status, body } = await app.tools(id)
    expect(status).toBe(502)
    expect(body).toMatchObject({ code: 'mcp_unavailable', detail: expect.stringContaining('refused') })
  })
})
