import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { testApp } from '../support/test-app.ts'

describe('OpenAPI document and reference page', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('is OpenAPI 3.1 and lists every route of the app with its schemas', async () => {
    const { status, body: doc } = await app.call('GET', '/api/dev/v1/openapi.json', { key: null })
    expect(status).toBe(200)
    expect(doc.openapi).toBe('3.1.0')
    const documented = new Set<string>()
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`)
    }
    const routes = app.http.routes
      .filter((route) => route.method !== 'WS' && !(route.hooks.detail as { hide?: boolean } | undefined)?.hide)
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1').replace(/:(\w+)/g, '{$1}')}`)
    expect(routes.length).toBeGreaterThan(5)
    expect([...documented].sort()).toEqual([...new Set(routes)].sort())
  })

  test('describes request bodies, parameters, responses and errors from the route schemas', async () => {
    const { body: doc } = await app.call('GET', '/api/dev/v1/openapi.json', { key: null })
    const create = doc.paths['/api/dev/v1/chatbots'].post
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
      additionalProperties: false,
    })
    expect(create.responses['201'].content['application/json'].schema.properties).toHaveProperty('entry_flow_id')
    expect(create.responses['422'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' })
    const list = doc.paths['/api/dev/v1/chatbots'].get
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', maximum: 200 }) }))
    const one = doc.paths['/api/dev/v1/chatbots/{chatbot_id}'].get
    expect(one.parameters).toContainEqual(expect.objectContaining({ name: 'chatbot_id', in: 'path', required: true }))
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.paths['/healthz'].get.security).toEqual([])
  })

  test('the reference page works offline: no external script, style or font', async () => {
    const page = await app.call('GET', '/api/dev/v1/reference', { key: null })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('openapi.json')
    expect(page.text).not.toMatch(/(src|href)=["']?(https?:)?\/\//)
    expect(page.text).not.toContain('innerHTML')
  })
})

describe('health and request logs', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('GET /healthz is liveness: 200 while the process serves; GET /readyz says whether the database answers', async () => {
    expect((await app.call('GET', '/healthz', { key: null })).body).toEqual({ status: 'ok' })
    expect((await app.call('GET', '/readyz', { key: null })).body).toEqual({ status: 'ready' })
    const probe = testApp()
    probe.db.close()
    const alive = await probe.call('GET', '/healthz', { key: null })
    expect([alive.status, alive.body]).toEqual([200, { status: 'ok' }])
    const down = await probe.call('GET', '/readyz', { key: null })
    expect(down.status).toBe(503)
    expect(down.headers.get('content-type')).toBe('application/problem+json')
    expect(down.body.code).toBe('database_unavailable')
    rmSync(probe.dir, { recursive: true, force: true })
  })

  test('every request is logged once as JSON with method, path, status, duration and request id', async () => {
    const result = await app.call('GET', '/api/dev/v1/chatbots/01ARZ3NDEKTSV4RRFFQ69G5FAV', { headers: { 'x-request-id': 'trace-123' } })
    expect(result.headers.get('x-request-id')).toBe('trace-123')
    await Bun.sleep(5)
    const entries = app.logLines.map((line) => JSON.parse(line)).filter((entry) => entry.request_id === 'trace-123')
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/api/dev/v1/chatbots/01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 404 })
    expect(typeof entries[0].duration_ms).toBe('number')
  })

  test('no log line carries an API key', async () => {
    await app.call('GET', '/api/dev/v1/chatbots')
    await Bun.sleep(5)
    expect(app.logLines.join('')).not.toContain(app.key)
    expect(app.logLines.join('')).not.toContain('pk_')
  })
})

describe('media types in the OpenAPI document', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('routes that answer text say so', async () => {
    const { body: doc } = await app.call('GET', '/api/dev/v1/openapi.json', { key: null })
    expect(Object.keys(doc.paths['/api/dev/v1/reference'].get.responses['200'].content)).toEqual(['text/html'])
    expect(Object.keys(doc.paths['/hooks/chatapp/{integration_id}'].get.responses['200'].content)).toEqual(['text/plain'])
    expect(JSON.stringify(doc)).not.toContain('x-media-type')
  })
})
