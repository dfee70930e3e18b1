import { createHmac } from 'node:crypto'
import { constantTimeEqual } from '../support/constant-time-equal.ts'
import { checkEmailAddress } from '../support/email-address.ts'
import { normalizePhoneNumber } from '../support/phone-number.ts'

export const MAX_USER_ID_LENGTH = 100
/** The spec's identity characters, plus `+` so that a sub-address (`jane+news@`) is its own. */
const LOCAL_PART_CHARACTERS = /^[A-Za-z0-9._+-]+$/

export type IdentityResult =
  | { ok: true; externalId: string; kind: 'email' | 'phone' }
  | { ok: false; reason: string }

/**
 * identify(user_id): an e-mail address (valid, not synthetic, not disposable, `A-Z a-z 0-9 .
 * _ - +` before the `@`), lower-cased, or a phone number normalised to E.164, so that every
 * spelling of one number is one visitor.
 *
 * Nothing is dropped or cut: a user id with other characters, or longer than 100 characters,
 * is refused. Dropping them merged distinct people into one contact (`jane+doe@` read as
 * `janedoe@`, a 113-character id cut to someone's 100-character one), and their
 * conversations and mail with it.
 */
export function resolveIdentity(rawUserId: string, defaultCountry?: string | null): IdentityResult {
  const userId = rawUserId.trim()
  if (!userId) return { ok: false, reason: 'the user id is empty' }
  if (userId.length > MAX_USER_ID_LENGTH) return { ok: false, reason: `the user id is longer than ${MAX_USER_ID_LENGTH} characters` }
  if (userId.includes('@')) {
    const email = checkEmailAddress(userId)
    if (!email.ok) return { ok: false, reason: `the e-mail address is ${email.reason}` }
    if (!LOCAL_PART_CHARACTERS.test(userId.slice(0, userId.lastIndexOf('@')))) {
      return { ok: false, reason: 'the e-mail address may hold only A-Z a-z 0-9 . _ - + before the @' }
    }
    return { ok: true, externalId: email.email.toLowerCase(), kind: 'email' }
  }
  const phone = normalizePhoneNumber(userId, defaultCountry ?? undefined)
  if (!phone) return { ok: false, reason: 'the user id is neither an e-mail address nor a valid phone number' }
  return { ok: true, externalId: phone, kind: 'phone' }
}

/**
 * With identity_secret set, the user id must already be the identity it names (the lower-case
 * address, the E.164 number), so the string the customer's backend signs is exactly the one
 * whose conversations open: no spelling signed for one person can resolve to another.
 */
export function isCanonicalUserId(userId: string, identity: { externalId: string }): boolean {
  return userId === identity.externalId
}

/**
 * identify() must carry hex(HMAC-SHA256(secret, user_id)) over the exact user id the page
 * passed (canonical, see isCanonicalUserId); compared in constant time.
 */
export function verifyIdentityHash(secret: string, userId: string, hash: string | undefined): boolean {
  if (!hash) return false
  const expected = createHmac('sha256', secret).update(userId).digest('hex')
  return constantTimeEqual(expected, hash.trim().toLowerCase())
}
