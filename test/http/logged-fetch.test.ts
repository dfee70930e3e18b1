import { describe, expect, test } from 'bun:test'
import { loggedFetch } from '../../server/http/logged-fetch.ts'
import { MAX_HEADER_BYTES, MAX_TARGET_BYTES } from '../../server/http/oversized-head.ts'
import { securityHeaders } from '../../server/http/security-headers.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'

const logged = (fetch: (request: Request) => Response | Promise<Response>, publicUrl = 'http://localhost') => {
  const sink = memorySink()
  return { fetch: loggedFetch(fetch, createLogger('info', sink), securityHeaders({ publicUrl })), lines: () => sink.lines.map((line) => JSON.parse(line)) }
}

describe('every HTTP request gets an id and one log line', () => {
  test('an answer given at once is passed on at once, with its id and a log line', () => {
    const { fetch, lines } = logged(() => new Response('ok', { status: 201 }))
    const response = fetch(new Request('http://localhost/a/b?secret=x', { method: 'POST' }))
    expect(response).toBeInstanceOf(Response)
    const answered = response as Response
    expect(answered.headers.get('x-request-id')).toMatch(/^req_/)
    expect(lines()).toEqual([
      { time: expect.any(String), level: 'info', msg: 'request', method: 'POST', path: '/a/b', status: 201, duration_ms: expect.any(Number), request_id: answered.headers.get('x-request-id'), client_ip: 'unknown' },
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

describe('a request head too large for Parley is refused before the app sees it', () => {
  const neverCalled = () => {
    throw new Error('the app was called')
  }

  test(`a path and query over ${MAX_TARGET_BYTES} bytes answer 414 uri_too_long as problem+json, logged by the path's start`, async () => {
    const { fetch, lines } = logged(neverCalled)
    const response = await fetch(new Request(`http://localhost/api/dev/v1/chatbots?q=${'a'.repeat(MAX_TARGET_BYTES)}`))
    expect(response.status).toBe(414)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const problem = await response.json()
    expect(problem).toMatchObject({ status: 414, code: 'uri_too_long', title: 'URI Too Long', request_id: response.headers.get('x-request-id') })
    expect(lines()[0]).toMatchObject({ status: 414, path: '/api/dev/v1/chatbots' })
    await fetch(new Request(`http://localhost/${'p'.repeat(MAX_TARGET_BYTES)}`))
    expect(lines()[1]).toMatchObject({ status: 414, path: `/${'p'.repeat(1023)}...` })
  })

  test(`headers over ${MAX_HEADER_BYTES} bytes answer 431 headers_too_large as problem+json`, async () => {
    const { fetch } = logged(neverCalled)
    const response = await fetch(new Request('http://localhost/x', { headers: { 'x-big': 'b'.repeat(MAX_HEADER_BYTES) } }))
    expect(response.status).toBe(431)
    expect(await response.json()).toMatchObject({ status: 431, code: 'headers_too_large', title: 'Request Header Fields Too Large' })
  })

  test('a head just within both limits reaches the app', async () => {
    const { fetch } = logged(() => new Response('ok'))
    const path = `/x?q=${'a'.repeat(MAX_TARGET_BYTES - 5)}`
    expect(path.length).toBe(MAX_TARGET_BYTES)
    const response = await fetch(new Request(`http://localhost${path}`, { headers: { 'x-big': 'b'.repeat(MAX_HEADER_BYTES - 'x-big'.length - 4) } }))
    expect(response.status).toBe(200)
  })
})

describe('every answer leaves with its security headers', () => {
  test('a JSON answer gets nosniff and the referrer policy, no page policy, and HSTS only when the public URL is https', () => {
    const plain = logged(() => Response.json({ ok: true })).fetch(new Request('http://localhost/health')) as Response
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff')
    expect(plain.headers.get('referrer-policy')).toBe('same-origin')
    expect(plain.headers.get('content-security-policy')).toBeNull()
    expect(plain.headers.get('strict-transport-security')).toBeNull()
    const secure = logged(() => Response.json({ ok: true }), 'https://chat.example.com').fetch(new Request('http://localhost/health')) as Response
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000')
  })

  test('an error the app throws gets them too', async () => {
    const response = await logged(() => {
      throw new Error('boom')
    }).fetch(new Request('http://localhost/x'))
    expect(response.status).toBe(500)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('HTML at a path without a policy of its own gets the strict default: nothing inline, no framing', async () => {
    const response = await logged(async () => new Response('<p>hi</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } })).fetch(new Request('http://localhost/app/anything'))
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("style-src 'self'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toContain('unsafe')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })
})
