import { createHmac } from 'node:crypto'
import { constantTimeEqual } from '../../support/constant-time-equal.ts'

const HEADER_FORM = /^sha256=([0-9a-f]{64})$/i

/**
 * Why the provider's `X-Hub-Signature-256` does not prove the body came from it, or null when
 * it does: `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the app
 * secret, compared in constant time.
 */
export function signatureProblem(appSecret: string, body: Uint8Array, header: string | null): string | null {
  if (header === null || header.trim() === '') {
    return 'X-Hub-Signature-256 is missing; this integration has an app_secret, so every webhook must be signed with it'
  }
  const match = HEADER_FORM.exec(header.trim())
  if (!match) return 'X-Hub-Signature-256 must be "sha256=" followed by 64 hex digits'
  const expected = createHmac('sha256', appSecret).update(body).digest('hex')
  if (!constantTimeEqual(expected, (match[1] as string).toLowerCase())) {
    return "X-Hub-Signature-256 does not match the body signed with this integration's app_secret"
  }
  return null
}
