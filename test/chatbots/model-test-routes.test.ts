import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fakeLookup } from '../mcp/support/mcp-app.ts'
import { activePerson, browser } from '../people/support/people-context.ts'
import { freePort } from '../support/free-port.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'

const KEY = 'sk-test-model-key-0123456789abcdef'
const cert = await Bun.file(new URL('../outbox/fixtures/receiver-test.cert.pem', import.meta.url)).text()
const key = await Bun.file(new URL('../outbox/fixtures/receiver-test.key.pem', import.meta.url)).text()

/**
 * POST /chatbots/{id}/llm/test: one small call the way agent runs make it (streamed, with a
 * tool offered), against the saved settings or the ones a person is typing; each failure
 * classified as the MCP connection test does, under the outbound address policy, and the key
 * never in the answer.
 */
describe('the model settings test', () => {
  let app: TestApp
  const model = fakeChatCompletions()
  const tls = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: { cert, key }, fetch: () => new Response('hi') })
  let botId: string
  let bareId: string
  const path = (id = botId) => `/api/dev/v1/chatbots/${id}/llm/test`
  const run = async (body?: Record<string, unknown>, id = botId) => {
    const result = await app.call('POST', path(id), body === undefined ? {} : { body })
    expect(result.text).not.toContain(KEY)
    return result
  }

  beforeAll(async () => {
    app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1,tools.test' }, { dnsLookup: fakeLookup, autopilot: { modelTimeoutMs: 300 } })
    botId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Model' } })).body.id
    bareId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'No model' } })).body.id
    const saved = await app.call('PATCH', `/api/dev/v1/chatbots/${botId}`, { body: { llm: { base_url: model.baseUrl, model: 'gpt-test', api_key: KEY } } })
    expect(saved.status).toBe(200)
  })
  afterAll(async () => {
    model.stop()
    tls.stop(true)
    await app.close()
  })

  test('the saved settings answer: ok, with the model, what it said and how long it took; sent as runs send it', async () => {
    model.push({ text: 'OK', usage: { prompt_tokens: 30, completion_tokens: 1 } })
    const { status, body } = await run()
    expect(status).toBe(200)
    expect(body).toEqual({ ok: true, model: 'gpt-test', answer: 'OK', latency_ms: expect.any(Number), usage: { prompt_tokens: 30, completion_tokens: 1, total_tokens: 31 } })
    const sent = model.requests.at(-1)!
    expect(sent.headers.get('authorization')).toBe(`Bearer ${KEY}`)
    expect(sent.body).toMatchObject({ model: 'gpt-test', stream: true, tool_choice: 'auto' })
    expect(sent.body.tools).toHaveLength(1)
  })

  test('settings being typed are tried without saving them; the stored key goes only to its own base URL', async () => {
    model.push({ text: 'OK' })
    expect((await run({ base_url: model.baseUrl, model: 'other-model' })).body).toMatchObject({ ok: true, model: 'other-model' })
    expect(model.requests.at(-1)!.headers.get('authorization')).toBe(`Bearer ${KEY}`)
    model.push({ status: 401, body: { error: { message: 'no key' } } })
    const elsewhere = await run({ base_url: model.baseUrl.replace('127.0.0.1', 'tools.test'), model: 'gpt-test' })
    expect(model.requests.at(-1)!.headers.get('authorization')).toBeNull()
    expect(elsewhere.body.failure).toMatchObject({ kind: 'unauthorized', http_status: 401 })
    expect(elsewhere.body.failure.message).toContain('no API key is set')
    const stored = await app.call('GET', `/api/dev/v1/chatbots/${botId}`)
    expect(stored.body.llm.model).toBe('gpt-test')
  })

  const failures: [string, () => Record<string, unknown>, (() => void) | null, { kind: string; http_status: number | null; says: string }][] = [
    ['a name that does not resolve', () => ({ base_url: 'https://api.nowhere.test/v1', model: 'm' }), null, { kind: 'dns', http_status: null, says: 'api.nowhere.test does not resolve to an address Parley may reach' }],
    ['nothing listening', () => ({ base_url: `http://127.0.0.1:${freePort()}/v1`, model: 'm' }), null, { kind: 'refused', http_status: null, says: 'refused the connection' }],
    ['a certificate Parley does not trust', () => ({ base_url: `https://127.0.0.1:${tls.port}/v1`, model: 'm' }), null, { kind: 'tls', http_status: null, says: 'TLS' }],
    // As the MCP test answers it (issue 25): the same as a name that does not resolve, so internal names stay private.
    ['a name resolving to a private address', () => ({ base_url: 'http://rebind.test/v1', model: 'm' }), null, { kind: 'dns', http_status: null, says: 'PARLEY_OUTBOUND_ALLOW' }],
    ['a private address typed', () => ({ base_url: 'http://10.1.2.3/v1', model: 'm' }), null, { kind: 'blocked_address', http_status: null, says: 'a private address' }],
    ['a refused key', () => ({}), () => model.push({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }), { kind: 'unauthorized', http_status: 401, says: 'check the API key' }],
    ['a key without access', () => ({}), () => model.push({ status: 403, body: { error: { message: 'forbidden' } } }), { kind: 'unauthorized', http_status: 403, says: 'HTTP 403' }],
    ['an unknown model', () => ({}), () => model.push({ status: 404, body: { error: { message: 'The model does not exist', code: 'model_not_found' } } }), { kind: 'not_found', http_status: 404, says: 'the model "gpt-test"' }],
    ['a wrong base URL path', () => ({ base_url: model.baseUrl.replace('/v1', '/nope'), model: 'm' }), null, { kind: 'not_found', http_status: 404, says: 'check the base URL' }],
    ['a rate limit', () => ({}), () => model.push({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '20' } }), { kind: 'rate_limited', http_status: 429, says: 'HTTP 429' }],
    ['a provider failure', () => ({}), () => model.push({ status: 503, body: { error: { message: 'overloaded' } } }), { kind: 'provider_error', http_status: 503, says: 'HTTP 503' }],
    ['a request the model refuses', () => ({}), () => model.push({ status: 400, body: { error: { message: 'tools are not supported' } } }), { kind: 'bad_request', http_status: 400, says: 'HTTP 400' }],
    ['a model that never answers', () => ({}), () => model.push({ hang: true }), { kind: 'timeout', http_status: null, says: 'did not answer within' }],
    ['a page that is not the API', () => ({}), () => model.push({ raw: '<html>login</html>', contentType: 'text/html' }), { kind: 'bad_answer', http_status: 200, says: 'not as an OpenAI-compatible' }],
    ['an answer past the size limit', () => ({}), () => model.push({ raw: JSON.stringify({ choices: [{ message: { content: 'q'.repeat(1_100_000) } }] }), contentType: 'application/json' }), { kind: 'no_answer', http_status: 200, says: 'too large to read' }],
    ['a stream that fails midway', () => ({}), () => model.push({ failMidStream: 'upstream died' }), { kind: 'provider_error', http_status: 200, says: 'failed mid-answer' }],
  ]
  for (const [name, body, script, expected] of failures) {
    test(`${name}: ok false, ${expected.kind}`, async () => {
      script?.()
      const sent = body()
      const { status, body: answer } = await run(Object.keys(sent).length > 0 ? sent : undefined)
      expect(status).toBe(200)
      expect(answer).toMatchObject({ ok: false, failure: { kind: expected.kind, http_status: expected.http_status }, latency_ms: expect.any(Number) })
      expect(answer.failure.message).toContain(expected.says)
    })
  }

  test("the outbound policy's reason is said once", async () => {
    const { body } = await run({ base_url: 'http://rebind.test/v1', model: 'm' })
    expect(body.failure.message.split('PARLEY_OUTBOUND_ALLOW').length - 1).toBe(1)
  })

  test('a chatbot without a model and nothing typed: 409 no_model; a body is checked like the PATCH', async () => {
    const none = await run(undefined, bareId)
    expect([none.status, none.body.code]).toEqual([409, 'no_model'])
    // An empty object is nothing typed (found by the fuzzer: it was a 500).
    const empty = await run({}, bareId)
    expect([empty.status, empty.body.code]).toEqual([409, 'no_model'])
    const wrong = await run({ base_url: 'ftp://example.com', model: 'm' }, bareId)
    expect([wrong.status, wrong.body.errors]).toEqual([422, [{ path: '/base_url', message: 'must use http or https' }]])
    expect((await run({ base_url: 'https://api.example.com/v1' }, bareId)).status).toBe(422)
    expect((await run({ base_url: 'https://api.example.com/v1', model: '' }, bareId)).status).toBe(422)
  })

  test("another workspace's chatbot is not found; an agent may not run it", async () => {
    const other = await app.call('POST', path(), { key: app.otherWorkspaceKey() })
    expect(other.status).toBe(404)
    const agent = await activePerson(app, 'sam@acme.io', 'agent')
    const refused = await app.call('POST', path(), { key: null, headers: browser(agent.cookie) })
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden'])
  })
})
