import { createHmac } from 'node:crypto'
import { constantTimeEqual } from '../support/constant-time-equal.ts'
import { checkEmailAddress } from '../support/email-address.ts'
import { normalizePhoneNumber } from '../support/phone-number.ts'

export const MAX_USER_ID_LENGTH = 100

export type IdentityResult =
  | { ok: true; externalId: string; kind: 'email' | 'phone' }
  | { ok: false; reason: string }

/**
 * identify(user_id): sanitised to `A-Z a-z 0-9 @ . _ -` (a leading `+` is kept as the
 * international prefix of a phone number) and cut to 100 characters; then an e-mail
 * address (valid, not synthetic, not disposable) or a phone number normalised to E.164, so
 * that every spelling of one number is one visitor.
 */
export function resolveIdentity(rawUserId: string, defaultCountry?: string | null): IdentityResult {
  const userId = sanitizeUserId(rawUserId)
  if (!userId) return { ok: false, reason: 'the user id is empty once sanitised' }
  if (userId.includes('@')) {
    const email = checkEmailAddress(userId)
    if (!email.ok) return { ok: false, reason: `the e-mail address is ${email.reason}` }
    return { ok: true, externalId: email.email.toLowerCase(), kind: 'email' }
  }
  const phone = normalizePhoneNumber(userId, defaultCountry ?? undefined)
  if (!phone) return { ok: false, reason: 'the user id is neither an e-mail address nor a valid phone number' }
  return { ok: true, externalId: phone, kind: 'phone' }
}

export function sanitizeUserId(raw: string): string {
  const trimmed = raw.trim()
  const prefix = trimmed.startsWith('+') ? '+' : ''
  return (prefix + trimmed.replace(/[^A-Za-z0-9@._-]/g, '')).slice(0, MAX_USER_ID_LENGTH)
}

/**
 * With identity_secret set, identify() must carry hex(HMAC-SHA256(secret, user_id)) over the
 * exact user id the page passed; compared in constant time.
 */
export function verifyIdentityHash(secret: string, rawUserId: string, hash: string | undefined): boolean {
  if (!hash) return false
  const expected = createHmac('sha256', secret).update(rawUserId).digest('hex')
  return constantTimeEqual(expected, hash.trim().toLowerCase())
}
