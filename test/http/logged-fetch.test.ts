import { describe, expect, test } from 'bun:test'
import { loggedFetch } from '../../server/http/logged-fetch.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'

const logged = (fetch: (request: Request) => Response | Promise<Response>) => {
  const sink = memorySink()
  return { fetch: loggedFetch(fetch, createLogger('info', sink)), lines: () => sink.lines.map((line) => JSON.parse(line)) }
}

describe('every HTTP request gets an id and one log line', () => {
  test('an answer given at once is passed on at once, with its id and a log line', () => {
    const { fetch, lines } = logged(() => new Response('ok', { status: 201 }))
    const response = fetch(new Request('http://localhost/a/b?secret=x', { method: 'POST' }))
    expect(response).toBeInstanceOf(Response)
    const answered = response as Response
    expect(answered.headers.get('x-request-id')).toMatch(/^req_/)
    expect(lines()).toEqual([
      { time: expect.any(String), level: 'info', msg: 'request', method: 'POST', path: '/a/b', status: 201, duration_ms: expect.any(Number), request_id: answered.headers.get('x-request-id') },
    ])
  })

  test('an answer that comes later is logged when it comes, and a sane incoming id is kept', async () => {
    const { fetch, lines } = logged(async () => new Response('later', { status: 404 }))
    const response = await fetch(new Request('http://localhost/x', { headers: { 'x-request-id': 'trace-9' } }))
    expect(response.headers.get('x-request-id')).toBe('trace-9')
    expect(lines()[0]).toMatchObject({ path: '/x', status: 404, request_id: 'trace-9' })
  })

  test('an app that throws still answers: 500 problem+json with the request id, logged with the stack', async () => {
    const { fetch, lines } = logged(() => {
      throw new Error('boom')
    })
    const response = (await fetch(new Request('http://localhost/'))) as Response
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    const body = (await response.json()) as { request_id: string; code: string }
    expect(body.code).toBe('internal_error')
    expect(body.request_id).toBe(response.headers.get('x-request-id') as string)
    expect(lines().map((line) => line.msg)).toEqual(['unhandled error', 'request'])
    expect(lines()[0].error).toContain('boom')
  })
})
