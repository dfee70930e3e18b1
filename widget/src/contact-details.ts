/**
 * setContactDetails(): the server's rules, applied in the browser too so the developer is told
 * (console.warn) what is changed or dropped. Keys become snake_case, only strings, numbers and
 * booleans are kept, at most 13 fields in total, values cut at 300 characters.
 */

export type ContactDetails = Record<string, string | number | boolean>

export const MAX_CONTACT_FIELDS = 13
export const MAX_CONTACT_VALUE_LENGTH = 300

const MAX_KEY_LENGTH = 64

/** `firstName`, `First Name`, `first-name` and `FIRST_NAME` all become `first_name`; accents go. */
export function snakeCaseKey(key: string): string {
  return key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, MAX_KEY_LENGTH)
}

export interface NormalizedDetails {
  /** The accepted changes, to send and to merge into what is kept. */
  changes: ContactDetails
  warnings: string[]
}

/** Normalises one call's details against those already set (which count towards the 13 fields). */
export function normalizeContactDetails(input: unknown, current: ContactDetails = {}): NormalizedDetails {
  const warnings: string[] = []
  const changes: ContactDetails = {}
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    return { changes, warnings: ['setContactDetails() needs a plain object such as { plan: "pro" }'] }
  }
  const known = new Set(Object.keys(current))
  for (const [rawKey, rawValue] of Object.entries(input as Record<string, unknown>)) {
    const key = snakeCaseKey(rawKey)
    if (!key) {
      warnings.push(`setContactDetails(): the key "${rawKey}" has no letters or digits; dropped`)
      continue
    }
    const value = scalar(rawValue)
    if (value === undefined) {
      warnings.push(`setContactDetails(): "${rawKey}" is not a string, number or boolean; dropped`)
      continue
    }
    if (!known.has(key) && known.size >= MAX_CONTACT_FIELDS) {
      warnings.push(`setContactDetails(): at most ${MAX_CONTACT_FIELDS} fields; "${rawKey}" dropped`)
      continue
    }
    if (key in changes) warnings.push(`setContactDetails(): "${rawKey}" becomes "${key}" like another key; the last one wins`)
    if (typeof value === 'string' && value.length > MAX_CONTACT_VALUE_LENGTH) {
      warnings.push(`setContactDetails(): "${rawKey}" is longer than ${MAX_CONTACT_VALUE_LENGTH} characters; cut`)
      changes[key] = value.slice(0, MAX_CONTACT_VALUE_LENGTH)
    } else changes[key] = value
    known.add(key)
  }
  return { changes, warnings }
}

function scalar(value: unknown): string | number | boolean | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number' && Number.isFinite(value)) return value
  return undefined
}
