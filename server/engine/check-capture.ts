import { checkEmailAddress } from '../support/email-address.ts'
import { normalizePhoneNumber } from '../support/phone-number.ts'
import type { CaptureKind, Scalar } from './model.ts'
import { parseNumber } from './parse-number.ts'

/**
 * Said when a value does not fit and the capture has no `retry` of its own. An e-mail address
 * is refused for one of three reasons, and a visitor can only fix a typo if told it is one.
 */
export const DEFAULT_RETRY = {
  text: 'Please type your answer.',
  email: {
    invalid: 'That does not look like an e-mail address. Please check it and try again.',
    synthetic: 'That address is only for examples and never receives mail. Please give an address you read.',
    disposable: 'Throwaway inboxes are not accepted here. Please give an address you will keep reading.',
  },
  phone: 'That does not look like a phone number. Please try again, starting with + and the country code.',
  number: 'Please answer with a number.',
} as const

export type CaptureCheck = { ok: true; value: Scalar } | { ok: false; defaultRetry: string }

/**
 * The value to store for a capture's answer, or what to say when it does not fit `as`:
 * text is kept trimmed (blank is refused); an e-mail must pass the same check as identify()
 * (no synthetic or disposable domains: neither reaches the person later) and is stored with
 * its domain lowercased; a phone number is stored as E.164; a number as a JSON number.
 */
export function checkCapture(as: CaptureKind, answer: string, defaultCountry: string | undefined): CaptureCheck {
  const text = answer.trim()
  switch (as) {
    case 'text':
      return fits(text === '' ? null : text, DEFAULT_RETRY.text)
    case 'email': {
      const checked = checkEmailAddress(text)
      return checked.ok ? { ok: true, value: checked.email } : { ok: false, defaultRetry: DEFAULT_RETRY.email[checked.reason] }
    }
    case 'phone':
      return fits(normalizePhoneNumber(text, defaultCountry), DEFAULT_RETRY.phone)
    case 'number':
      return fits(parseNumber(text), DEFAULT_RETRY.number)
  }
}

function fits(value: Scalar | null, defaultRetry: string): CaptureCheck {
  return value === null ? { ok: false, defaultRetry } : { ok: true, value }
}
