import { afterAll, describe, expect, test } from 'bun:test'
import { DEFAULT_BODY_LIMIT } from '../server/http/json-body.ts'
import { liveServer } from './support/live-server.ts'

const MIB = 1024 * 1024

describe('the listener', () => {
  const server = liveServer({ PARLEY_ATTACHMENT_MAX_BYTES: String(20 * MIB) })
  const withDefaults = liveServer()
  afterAll(async () => {
    await server.stop()
    await withDefaults.stop()
  })

  test('takes bodies as large as the largest route limit, which PARLEY_ATTACHMENT_MAX_BYTES may raise past 16 MiB', () => {
    // A rest-api message carries its file in base64: 4 characters for 3 bytes, and the JSON around it.
    expect(server.maxBodyBytes).toBe(Math.ceil((20 * MIB) / 3) * 4 + 64 * 1024)
    expect(withDefaults.maxBodyBytes).toBeGreaterThanOrEqual(16 * MIB)
    expect(withDefaults.maxBodyBytes).toBeGreaterThan(DEFAULT_BODY_LIMIT)
  })

  test('a 17 MiB body within a route limit reaches Parley and gets its problem+json, not a bare 413 from the listener', async () => {
    const body = JSON.stringify({ user_id: 'u1', attachment: { filename: 'big.pdf', data: 'A'.repeat(17 * MIB) } })
    const response = await fetch(`${server.origin}/api/dev/v1/chatbots/cb_missing/integrations/rest-api/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body,
    })
    // Read, authenticated and routed: the chatbot does not exist.
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/problem+json')
  })
})
