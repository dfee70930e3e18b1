import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_HEADER_BYTES, MAX_TARGET_BYTES } from '../../server/http/oversized-head.ts'
import { MAX_REQUEST_HEAD_BYTES } from '../../server/listen.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { rawRequest } from '../support/raw-request.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'


describe('request heads too large for Parley, against the compiled binary', () => {
  let parley: RunningParley
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-head-'))
    parley = await runParley([compiledParley()], { PARLEY_DATA_DIR: dir })
  }, 30_000)
  afterAll(async () => {
    await parley?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a 64 KB path answers 414 uri_too_long in problem+json', async () => {
    const answer = await rawRequest(parley.url, `GET /${'p'.repeat(64 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n`)
    expect(answer.status).toBe(414)
    expect(answer.headers['content-type']).toBe('application/problem+json')
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(JSON.parse(answer.body)).toMatchObject({ status: 414, code: 'uri_too_long', title: 'URI Too Long', request_id: answer.headers['x-request-id'] })
  })

  test('a 70 KB query answers 414 uri_too_long in problem+json', async () => {
    const answer = await rawRequest(parley.url, `GET /api/dev/v1/chatbots?q=${'q'.repeat(70 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n`)
    expect(answer.status).toBe(414)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'uri_too_long' })
  })

  test('60 KB of headers answer 431 headers_too_large in problem+json', async () => {
    const header = `X-Filler: ${'h'.repeat(60 * 1024)}\r\n`
    const answer = await rawRequest(parley.url, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}`)
    expect(answer.status).toBe(431)
    expect(answer.headers['content-type']).toBe('application/problem+json')
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'headers_too_large', title: 'Request Header Fields Too Large' })
  })

  test('a head just within the limits is served', async () => {
    const target = `/healthz?q=${'q'.repeat(MAX_TARGET_BYTES - '/healthz?q='.length)}`
    const answer = await rawRequest(parley.url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'h'.repeat(MAX_HEADER_BYTES - 200)}\r\n`)
    expect(answer.status).toBe(200)
  })

  test(`over ${MAX_REQUEST_HEAD_BYTES / 1024} KiB, Bun's own parser still answers (an empty 431): the documented limit`, async () => {
    const answer = await rawRequest(parley.url, `GET /${'p'.repeat(MAX_REQUEST_HEAD_BYTES)} HTTP/1.1\r\nHost: 127.0.0.1\r\n`)
    expect(answer.status).toBe(431)
    expect(answer.body).toBe('')
  })
})
