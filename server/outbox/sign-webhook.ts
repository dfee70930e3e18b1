import { createHmac } from 'node:crypto'

const PREFIX = 'whsec_'

/**
 * The Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}`, keyed with the bytes the secret's base64 (after `whsec_`) encodes.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
  if (key.length === 0) throw new Error('the signing secret is empty')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`
}
