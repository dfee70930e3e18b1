import type { ContactDetails } from './model.ts'
import { primaryLanguage } from '../protocol/widget-locales.ts'

export const MAX_CONTACT_FIELDS = 13
export const MAX_CONTACT_VALUE_LENGTH = 300
const MAX_KEY_LENGTH = 64

export interface NormalizedDetails {
  details: ContactDetails
  /** Keys whose values were not scalars (objects, arrays, null) and were dropped. */
  dropped: string[]
  /** Keys whose string values were cut to MAX_CONTACT_VALUE_LENGTH characters. */
  truncated: string[]
}

/**
 * setContactDetails() as the spec has it: keys to snake_case, scalar values only (nested
 * values dropped without error), strings cut to 300 characters.
 */
export function normalizeContactDetails(input: Record<string, unknown>): NormalizedDetails {
  const details: ContactDetails = {}
  const dropped: string[] = []
  const truncated: string[] = []
  for (const [rawKey, value] of Object.entries(input)) {
    const key = toSnakeCase(rawKey)
    if (!key) {
      dropped.push(rawKey)
      continue
    }
    if (typeof value === 'string') {
      if (value.length > MAX_CONTACT_VALUE_LENGTH) truncated.push(key)
      details[key] = value.slice(0, MAX_CONTACT_VALUE_LENGTH)
    } else if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      details[key] = value
    } else dropped.push(rawKey)
  }
  return { details, dropped, truncated }
}

/**
 * Merges on every reconnect: new keys are added, existing keys updated, old keys kept. Past
 * 13 fields, keys already stored win and the newest extra keys are left out.
 */
export function mergeContactDetails(existing: ContactDetails, incoming: ContactDetails): { details: ContactDetails; overLimit: string[] } {
  const details: ContactDetails = { ...existing }
  const overLimit: string[] = []
  for (const [key, value] of Object.entries(incoming)) {
    if (key in details || Object.keys(details).length < MAX_CONTACT_FIELDS) details[key] = value
    else overLimit.push(key)
  }
  return { details, overLimit }
}

/** "First Name", "firstName", "first-name" and "FIRST_NAME" all become "first_name". */
export function toSnakeCase(key: string): string {
  return key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_KEY_LENGTH)
}

/**
 * The contact as flows and agent instructions read it (`contact.KEY`): its details, with
 * `locale` (the visitor's language tag, pt-BR) and `language` (its primary language, pt) when
 * the channel told one. Details the site set under those keys win: it knows its own users.
 */
export function flowContact(details: ContactDetails, locale: string | null): ContactDetails {
  if (!locale) return details
  return { locale, language: primaryLanguage(locale), ...details }
}
