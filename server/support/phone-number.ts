import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max'

/**
 * Only what people type for a phone number: digits, spaces and the usual separators, with
 * `+` only in front. Anything else (letters, `@`, extensions) is not a phone number here,
 * so an e-mail address or a sentence is never turned into one by a lenient parser.
 */
const PHONE_SPELLING = /^\+?[\d\s().\-/]+$/
const MAX_LENGTH = 40

/**
 * A phone number as E.164 (`+442079460958`), or null when it is not a valid number.
 *
 * Every spelling of one number gives the same string: `+44 20 7946 0958`, `0044 20 7946 0958`
 * and, with `defaultCountry` `GB`, `020 7946 0958`. Validity uses libphonenumber's full
 * metadata (number ranges per country, not only lengths). A number without a country code
 * needs `defaultCountry` (ISO 3166 alpha-2, e.g. `GB`); an unknown code is ignored.
 */
export function normalizePhoneNumber(raw: string, defaultCountry?: string): string | null {
  const spelled = raw.trim()
  if (spelled.length === 0 || spelled.length > MAX_LENGTH || !PHONE_SPELLING.test(spelled)) return null
  const country = supportedCountry(defaultCountry)
  const direct = validE164(spelled, country)
  if (direct) return direct
  // `00` is the international prefix in most of the world; read it as `+` even when the
  // default country dials abroad differently (the US uses 011) or no country is known.
  const compact = spelled.replace(/[\s().\-/]/g, '')
  if (compact.startsWith('00')) return validE164(`+${compact.slice(2)}`, undefined)
  return null
}

function validE164(spelled: string, country: CountryCode | undefined): string | null {
  const parsed = parsePhoneNumberFromString(spelled, country)
  if (!parsed || parsed.ext || !parsed.isValid()) return null
  return parsed.number
}

function supportedCountry(code: string | undefined): CountryCode | undefined {
  if (!code) return undefined
  const upper = code.toUpperCase()
  return isSupportedCountry(upper) ? upper : undefined
}
