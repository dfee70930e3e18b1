import { afterAll, describe, expect, test } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import { testApp } from '../support/test-app.ts'

const chatbots = '/api/dev/v1/chatbots'

scenarios<{ revokedKey: string }>(
  'every error is problem+json with the right status',
  async (app) => {
    const created = await app.services.workspaces.createKey({ name: 'to revoke' })
    await app.services.workspaces.revokeKey(created.prefix)
    return { revokedKey: created.key }
  },
  [
    { name: '400: malformed JSON', method: 'POST', path: chatbots, rawBody: '{"name": ', headers: { 'content-type': 'application/json' }, status: 400, code: 'malformed_json' },
    { name: '401: no Authorization header', method: 'GET', path: chatbots, key: null, status: 401, code: 'unauthorized', check: (r) => expect(r.headers.get('www-authenticate')).toBe('Bearer') },
    { name: '401: not a Bearer header', method: 'GET', path: chatbots, key: null, headers: { authorization: 'Basic dXNlcjpwYXNz' }, status: 401, code: 'unauthorized' },
    { name: '401: an unknown key', method: 'GET', path: chatbots, key: 'pk_0000000000000000000000000000000000000000', status: 401, code: 'unauthorized' },
    { name: '401: a key that does not look like one', method: 'GET', path: chatbots, key: 'secret', status: 401, code: 'unauthorized' },
    { name: '401: a revoked key', method: 'GET', path: chatbots, key: (c) => c.revokedKey, status: 401, code: 'unauthorized' },
    { name: '404: an unknown route', method: 'GET', path: '/api/dev/v1/nothing-here', status: 404, code: 'not_found' },
    {
      name: '405: a known path with the wrong method, with Allow',
      method: 'PUT',
      path: chatbots,
      body: { name: 'x' },
      status: 405,
      code: 'method_not_allowed',
      check: (r) => expect(r.headers.get('allow')).toBe('GET, POST'),
    },
    {
      name: '405: also for a path with an id',
      method: 'POST',
      path: `${chatbots}/01ARZ3NDEKTSV4RRFFQ69G5FAV`,
      body: {},
      status: 405,
      check: (r) => expect(r.headers.get('allow')).toBe('DELETE, GET, PATCH'),
    },
    {
      name: '413: a body over 1 MiB',
      method: 'POST',
      path: chatbots,
      body: { name: 'x'.repeat(1024 * 1024) },
      status: 413,
      code: 'payload_too_large',
    },
    { name: '415: a body that is not JSON', method: 'POST', path: chatbots, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'unsupported_media_type' },
    { name: '415: a text/plain body, even if it holds JSON', method: 'POST', path: chatbots, rawBody: '{"name":"x"}', status: 415, code: 'unsupported_media_type' },
    { name: 'a JSON media type with a charset is fine', method: 'POST', path: chatbots, rawBody: '{"name":"x"}', headers: { 'content-type': 'application/json; charset=utf-8' }, status: 201 },
    { name: '422: a body that fails its schema names the field', method: 'POST', path: chatbots, body: { name: 42 }, status: 422, code: 'validation_failed', errorPaths: ['/name'] },
    { name: '422: an empty body is explained', method: 'POST', path: chatbots, rawBody: '', headers: { 'content-type': 'application/json' }, status: 422, errorPaths: [''] },
  ],
)

describe('rate limiting', () => {
  const app = testApp({ PARLEY_RATE_LIMIT: '40' })
  afterAll(() => app.close())

  test('429 with Retry-After once a workspace spends its burst, other workspaces unaffected', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await app.call('GET', chatbots)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    const limited = await app.call('GET', chatbots)
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe('rate_limited')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await app.call('GET', chatbots, { key: app.otherWorkspaceKey() })).status).toBe(200)
  })
})

describe('500', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('a real bug answers 500 with a request id and no stack, and is logged with that id', async () => {
    app.db.exec('DROP TABLE chatbots')
    const result = await app.call('GET', chatbots)
    expect(result.status).toBe(500)
    expect(result.body.code).toBe('internal_error')
    const requestId = result.body.request_id
    expect(requestId).toBe(result.headers.get('x-request-id'))
    expect(result.text).not.toContain('chatbots')
    expect(result.text).not.toMatch(/at .*\.ts/)
    const logged = app.logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'unhandled error')
    expect(logged).toMatchObject({ level: 'error', request_id: requestId })
    expect(logged.error).toContain('no such table')
  })
})

describe('bodies of requests without a valid key', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('a malformed body without a key answers 401, not 400', async () => {
    const result = await app.call('POST', chatbots, { key: null, rawBody: '{', headers: { 'content-type': 'application/json' } })
    expect(result.status).toBe(401)
  })

  test('an oversized body with an unknown key answers 401, not 413', async () => {
    const result = await app.call('POST', chatbots, { key: 'pk_unknownunknownunknownunknownunknownunkn', body: { name: 'x'.repeat(2 * 1024 * 1024) } })
    expect(result.status).toBe(401)
  })

  test('the body is never read: a body that never ends still gets its 401 at once', async () => {
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) })
    const request = new Request('http://localhost/api/dev/v1/chatbots', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit)
    const answered = await Promise.race([Promise.resolve(app.fetch(request)).then((response) => response.status), Bun.sleep(2000).then(() => 'hung')])
    expect(answered).toBe(401)
  })
})
