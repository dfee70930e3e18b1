import { checkEmailAddress } from '../support/email-address.ts'
import { normalizePhoneNumber } from '../support/phone-number.ts'
import type { CaptureKind, Scalar } from './model.ts'
import { parseNumber } from './parse-number.ts'

/** Said when a value does not fit and the capture has no `retry` of its own. */
export const DEFAULT_RETRY: Record<CaptureKind, string> = {
  text: 'Please type your answer.',
  email: 'That does not look like an e-mail address we can write to. Please try again.',
  phone: 'That does not look like a phone number. Please try again, starting with + and the country code.',
  number: 'Please answer with a number.',
}

/**
 * The value to store for a capture's answer, or null when it does not fit `as`:
 * text is kept trimmed (blank is refused); an e-mail must pass the same check as identify()
 * (no synthetic or disposable domains: neither reaches the person later) and is stored with
 * its domain lowercased; a phone number is stored as E.164; a number as a JSON number.
 */
export function checkCapture(as: CaptureKind, answer: string, defaultCountry: string | undefined): Scalar | null {
  const text = answer.trim()
  switch (as) {
    case 'text':
      return text === '' ? null : text
    case 'email': {
      const checked = checkEmailAddress(text)
      return checked.ok ? checked.email : null
    }
    case 'phone':
      return normalizePhoneNumber(text, defaultCountry)
    case 'number':
      return parseNumber(text)
  }
}
