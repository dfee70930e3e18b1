import { afterAll, describe, expect, test } from 'bun:test'
import { request as httpRequest } from 'node:http'
import { liveServer } from '../support/live-server.ts'
import { testApp } from '../support/test-app.ts'

const chatbots = '/api/dev/v1/chatbots'
const wrongKey = 'pk_0000000000000000000000000000000000000000'

/** A GET from a chosen loopback address (Linux routes all of 127.0.0.0/8 to lo): another client. */
function getFrom(localAddress: string, url: string, key: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('failed API key attempts are throttled per address', () => {
  const server = liveServer()
  afterAll(() => server.stop())
  const get = (key: string | null, path = chatbots) => fetch(`${server.origin}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} })

  test('20 failures a minute answer 401; then the address gets 429 too_many_failed_attempts with Retry-After, whatever key it sends, while other addresses go on', async () => {
    expect((await get(server.key)).status).toBe(200)
    const statuses: number[] = []
    // Every kind of failure counts, on every route, including those whose body waits for the key.
    for (let i = 0; i < 5; i++) statuses.push((await get(null)).status)
    for (let i = 0; i < 5; i++) statuses.push((await get('not-a-key')).status)
    for (let i = 0; i < 5; i++) {
      const post = await fetch(`${server.origin}${chatbots}`, { method: 'POST', headers: { authorization: `Bearer ${wrongKey}`, 'content-type': 'application/json' }, body: '{"name":"x"}' })
      statuses.push(post.status)
    }
    for (let i = 0; i < 5; i++) statuses.push((await get(wrongKey, `${chatbots}/01ARZ3NDEKTSV4RRFFQ69G5FAV`)).status)
    expect(statuses).toEqual(Array(20).fill(401))

    const refused = await get(wrongKey)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toBe('application/problem+json')
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    const problem = await refused.json()
    expect(problem).toMatchObject({ status: 429, code: 'too_many_failed_attempts' })

    // The answer does not tell a valid key from a wrong one: both are refused unread.
    const valid = await get(server.key)
    expect(valid.status).toBe(429)
    const { request_id: _a, ...validProblem } = await valid.json()
    const { request_id: _b, ...wrongProblem } = problem
    expect(validProblem).toEqual(wrongProblem)

    // Another address is not affected; public routes of this address are not either.
    expect(await getFrom('127.0.0.2', `${server.origin}${chatbots}`, server.key)).toMatchObject({ status: 200 })
    expect((await get(null, '/healthz')).status).toBe(200)
  })
})

describe('the throttle in the compiled binary', () => {
  const app = testApp({ PARLEY_AUTH_FAILURE_LIMIT: '3' })
  afterAll(() => app.close())

  test('PARLEY_AUTH_FAILURE_LIMIT sets the number of failures; the fourth is refused with Retry-After', async () => {
    await app.serveFromBinary()
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await app.call('GET', chatbots, { key: wrongKey })).status)
    expect(statuses).toEqual([401, 401, 401, 429])
    const refused = await app.call('GET', chatbots)
    expect(refused.status).toBe(429)
    expect(refused.body.code).toBe('too_many_failed_attempts')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  }, 30_000)
})

describe('PARLEY_AUTH_FAILURE_LIMIT=0', () => {
  test('turns the throttle off', async () => {
    const app = testApp({ PARLEY_AUTH_FAILURE_LIMIT: '0' })
    try {
      for (let i = 0; i < 50; i++) expect((await app.call('GET', chatbots, { key: wrongKey })).status).toBe(401)
      expect((await app.call('GET', chatbots)).status).toBe(200)
    } finally {
      await app.close()
    }
  })
})
