/**
 * identify(): the checks the server makes, repeated in the browser so a developer sees a clear
 * console warning instead of a refused connection. The value itself is sent as given: the
 * server sanitises it, normalises phone numbers to E.164 and verifies the HMAC over it.
 */

export const MAX_USER_ID_LENGTH = 100
/** hello.user_id refuses longer strings outright. */
const MAX_RAW_LENGTH = 256
const DISALLOWED = /[^A-Za-z0-9@._-]/g
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/
const PHONE = /^\+?[\d\s().-]+$/
const HMAC_HEX = /^[0-9a-fA-F]{64}$/
/** Domains reserved for examples and tests (RFC 2606, RFC 6761): the server refuses them. */
const RESERVED_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost|local)$/i

export type IdentityCheck =
  | { ok: true; userId: string; hash?: string; warnings: string[] }
  | { ok: false; problem: string }

/** What the server keeps of a user id: the allowed characters (and a leading `+` of a phone number). */
export function sanitizeUserId(raw: string): string {
  const trimmed = raw.trim()
  return (trimmed.startsWith('+') ? '+' : '') + trimmed.replace(DISALLOWED, '')
}

export function checkIdentity(userId: unknown, options?: unknown): IdentityCheck {
  if (typeof userId !== 'string' || userId.trim() === '') {
    return { ok: false, problem: 'identify() needs an e-mail address or a phone number as a string' }
  }
  if (userId.length > MAX_RAW_LENGTH) return { ok: false, problem: `identify(): the user id is longer than ${MAX_RAW_LENGTH} characters` }
  const sanitized = sanitizeUserId(userId)
  if (sanitized.length > MAX_USER_ID_LENGTH) {
    return { ok: false, problem: `identify(): "${userId}" has more than ${MAX_USER_ID_LENGTH} characters from A-Z a-z 0-9 @ . _ -` }
  }
  const warnings: string[] = []
  const trimmed = userId.trim()
  if (trimmed.includes('@')) {
    if (!EMAIL.test(trimmed) || !EMAIL.test(sanitized)) return { ok: false, problem: `identify(): "${userId}" is not a valid e-mail address` }
    const domain = sanitized.slice(sanitized.lastIndexOf('@') + 1)
    if (RESERVED_DOMAIN.test(domain)) {
      return { ok: false, problem: `identify(): "${domain}" is reserved for examples and tests; the server refuses such addresses` }
    }
    if (sanitized !== trimmed) {
      warnings.push(`identify(): only A-Z a-z 0-9 @ . _ - are kept, so "${userId}" is stored as "${sanitized}"`)
    }
  } else {
    const digits = trimmed.replace(/\D/g, '').length
    if (!PHONE.test(trimmed) || digits < 6 || digits > 15) {
      return { ok: false, problem: `identify(): "${userId}" is neither an e-mail address nor a phone number` }
    }
  }
  const hash = options && typeof options === 'object' ? (options as { hash?: unknown }).hash : undefined
  if (hash === undefined) return { ok: true, userId, warnings }
  if (typeof hash !== 'string' || !HMAC_HEX.test(hash)) {
    return { ok: false, problem: 'identify(): options.hash must be the hex HMAC-SHA256 of the user id (64 hex characters)' }
  }
  return { ok: true, userId, hash: hash.toLowerCase(), warnings }
}
