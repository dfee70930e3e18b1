import { describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { newSigningSecret } from '../../server/integrations/rest-api-integration.ts'
import { signWebhook } from '../../server/outbox/sign-webhook.ts'

// The reference implementation of Standard Webhooks (npm standardwebhooks) checks our signatures.
const verify = (secret: string, id: string, timestamp: number, body: string, signature: string) =>
  new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature })

describe('webhook signatures (Standard Webhooks)', () => {
  const now = Math.floor(Date.now() / 1000)
  const body = JSON.stringify({ type: 'message.created', data: { text: 'Grüße 👋' } })

  test('a signature verifies with the reference implementation and the same secret', () => {
    const secret = newSigningSecret()
    const signature = signWebhook(secret, 'evt_1', now, body)
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    expect(verify(secret, 'evt_1', now, body, signature)).toEqual(JSON.parse(body))
  })

  test('it is the same signature the reference implementation makes', () => {
    const secret = newSigningSecret()
    expect(signWebhook(secret, 'evt_2', now, body)).toBe(new Webhook(secret).sign('evt_2', new Date(now * 1000), body))
  })

  test('another secret, id, timestamp or body does not verify', () => {
    const secret = newSigningSecret()
    const signature = signWebhook(secret, 'evt_1', now, body)
    expect(() => verify(newSigningSecret(), 'evt_1', now, body, signature)).toThrow('No matching signature')
    expect(() => verify(secret, 'evt_9', now, body, signature)).toThrow('No matching signature')
    expect(() => verify(secret, 'evt_1', now - 1, body, signature)).toThrow('No matching signature')
    expect(() => verify(secret, 'evt_1', now, `${body} `, signature)).toThrow('No matching signature')
  })

  test('the key is the decoded secret, not its text', () => {
    const secret = newSigningSecret()
    const textKeyed = new Webhook(secret.slice('whsec_'.length), { format: 'raw' }).sign('evt_1', new Date(now * 1000), body)
    expect(signWebhook(secret, 'evt_1', now, body)).not.toBe(textKeyed)
  })

  test('an empty secret is refused rather than used', () => {
    expect(() => signWebhook('whsec_', 'evt_1', now, body)).toThrow('empty')
  })
})
