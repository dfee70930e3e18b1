// The list is imported, not read from a path, so that `bun build --compile` embeds it in the
// executable. Its source is the community-maintained disposable-email-domains list (CC0).
import disposableDomains from 'disposable-email-domains-js/dist/dict/disposable_email_blocklist.json'

export type EmailCheck =
  | { ok: true; email: string }
  | { ok: false; reason: 'invalid' | 'synthetic' | 'disposable' }

const MAX_LENGTH = 254
// The unquoted "dot-atom" local part of RFC 5322; quoted local parts are refused on purpose.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/
const TOP_LEVEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/** Domains that exist only for documentation and tests (RFC 2606, RFC 6761, RFC 6762). */
const SYNTHETIC_DOMAINS = ['example.com', 'example.net', 'example.org']
const SYNTHETIC_TOP_LEVEL = new Set(['test', 'example', 'invalid', 'localhost', 'local'])

let disposable: Set<string> | undefined

/**
 * Checks an e-mail address the practical way: a local part, `@`, and a domain with at least
 * two labels ending in a real-looking top-level domain. Returns it trimmed, with the domain
 * lowercased (and an internationalised domain in its ASCII form), or why it is refused:
 * `invalid` (not an address), `synthetic` (a reserved domain that never receives mail, such
 * as example.com or *.test) or `disposable` (a throwaway-inbox provider, or a subdomain of one).
 */
export function checkEmailAddress(raw: string): EmailCheck {
  const address = raw.trim()
  if (address.length > MAX_LENGTH) return { ok: false, reason: 'invalid' }
  const at = address.indexOf('@')
  if (at < 1 || at !== address.lastIndexOf('@')) return { ok: false, reason: 'invalid' }
  const local = address.slice(0, at)
  const domain = asciiDomain(address.slice(at + 1))
  if (local.length > 64 || !LOCAL_PART.test(local) || !domain || !isDomainName(domain)) return { ok: false, reason: 'invalid' }
  if (isSynthetic(domain)) return { ok: false, reason: 'synthetic' }
  if (isDisposable(domain)) return { ok: false, reason: 'disposable' }
  return { ok: true, email: `${local}@${domain}` }
}

/** Lowercased; a Unicode domain becomes its punycode form, so both spellings compare equal. */
function asciiDomain(domain: string): string | null {
  if (/^[\x21-\x7e]*$/.test(domain)) return domain.toLowerCase()
  if (/[\s/?#@%:[\]\\]/.test(domain)) return null
  try {
    return new URL(`http://${domain}`).hostname
  } catch {
    return null
  }
}

function isDomainName(domain: string): boolean {
  if (domain.length > 253) return false
  const labels = domain.split('.')
  const top = labels.at(-1) ?? ''
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && TOP_LEVEL.test(top)
}

function isSynthetic(domain: string): boolean {
  const top = domain.slice(domain.lastIndexOf('.') + 1)
  return SYNTHETIC_TOP_LEVEL.has(top) || SYNTHETIC_DOMAINS.some((name) => domain === name || domain.endsWith(`.${name}`))
}

/** The listed domain itself or any subdomain of it (mail.mailinator.com is mailinator). */
function isDisposable(domain: string): boolean {
  disposable ??= new Set(disposableDomains as string[])
  const labels = domain.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    if (disposable.has(labels.slice(i).join('.'))) return true
  }
  return false
}
