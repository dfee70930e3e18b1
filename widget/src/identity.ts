/**
 * identify(): the checks the server makes, repeated in the browser so a developer sees a clear
 * console warning instead of a refused connection. The value itself is sent as given: the
 * server checks it, normalises phone numbers to E.164 and verifies the HMAC over it. Nothing
 * is dropped or cut, on either side: a value the server would have to change is refused.
 */

export const MAX_USER_ID_LENGTH = 100
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/
/** The local part the server accepts: the spec's identity characters plus `+` (sub-addresses). */
const LOCAL_PART = /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*$/
const PHONE = /^\+?[\d\s().-]+$/
const E164 = /^\+[1-9]\d{5,14}$/
const HMAC_HEX = /^[0-9a-fA-F]{64}$/
/** Domains reserved for examples and tests (RFC 2606, RFC 6761): the server refuses them. */
const RESERVED_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost|local)$/i

export type IdentityCheck =
  | { ok: true; userId: string; hash?: string; warnings: string[] }
  | { ok: false; problem: string }

export function checkIdentity(userId: unknown, options?: unknown): IdentityCheck {
  if (typeof userId !== 'string' || userId.trim() === '') {
    return { ok: false, problem: 'identify() needs an e-mail address or a phone number as a string' }
  }
  const trimmed = userId.trim()
  if (trimmed.length > MAX_USER_ID_LENGTH) {
    return { ok: false, problem: `identify(): the user id is longer than ${MAX_USER_ID_LENGTH} characters` }
  }
  const isEmail = trimmed.includes('@')
  if (isEmail) {
    const local = trimmed.slice(0, trimmed.lastIndexOf('@'))
    if (!EMAIL.test(trimmed)) return { ok: false, problem: `identify(): "${userId}" is not a valid e-mail address` }
    if (!LOCAL_PART.test(local)) {
      return { ok: false, problem: `identify(): "${userId}" is not a valid e-mail address (only A-Z a-z 0-9 . _ - + before the @)` }
    }
    const domain = trimmed.slice(trimmed.lastIndexOf('@') + 1)
    if (RESERVED_DOMAIN.test(domain)) {
      return { ok: false, problem: `identify(): "${domain}" is reserved for examples and tests; the server refuses such addresses` }
    }
  } else {
    const digits = trimmed.replace(/\D/g, '').length
    if (!PHONE.test(trimmed) || digits < 6 || digits > 15) {
      return { ok: false, problem: `identify(): "${userId}" is neither an e-mail address nor a phone number` }
    }
  }
  const hash = options && typeof options === 'object' ? (options as { hash?: unknown }).hash : undefined
  if (hash === undefined) return { ok: true, userId, warnings: [] }
  if (typeof hash !== 'string' || !HMAC_HEX.test(hash)) {
    return { ok: false, problem: 'identify(): options.hash must be the hex HMAC-SHA256 of the user id (64 hex characters)' }
  }
  // Only a warning: the widget cannot know whether identity_secret is set; the server decides.
  const canonical = isEmail ? userId === userId.toLowerCase() && userId === trimmed : E164.test(userId)
  const warnings = canonical
    ? []
    : [`identify(): with identity verification the server accepts only ${isEmail ? 'a lower-case e-mail address' : 'an E.164 number (+ and digits)'} without spaces, signed exactly as passed; "${userId}" will be refused (4010)`]
  return { ok: true, userId, hash: hash.toLowerCase(), warnings }
}
