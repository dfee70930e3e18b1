import { describe, expect, test } from 'bun:test'
import { normalizeContactDetails, snakeCaseKey } from '../../widget/src/contact-details.ts'

describe('setContactDetails() normalising in the browser', () => {
  test.each([
    ['firstName', 'first_name'],
    ['First Name', 'first_name'],
    ['first-name', 'first_name'],
    ['FIRST_NAME', 'first_name'],
    ['HTTPStatus', 'http_status'],
    ['plan', 'plan'],
    ['  order #  ', 'order'],
    ['vip2024Level', 'vip2024_level'],
    ['Prénom', 'prenom'],
    ['x'.repeat(70), 'x'.repeat(64)],
  ])('turns the key %p into %p', (key, expected) => {
    expect(snakeCaseKey(key)).toBe(expected)
  })

  test('keeps strings, numbers and booleans, with snake_case keys, and no warning for the renaming', () => {
    expect(normalizeContactDetails({ planName: 'pro', seats: 12, trial: false })).toEqual({
      changes: { plan_name: 'pro', seats: 12, trial: false },
      warnings: [],
    })
  })

  test('drops nested objects, arrays, null, functions and non-finite numbers, each with a warning', () => {
    const { changes, warnings } = normalizeContactDetails({ ok: 'yes', address: { city: 'Paris' }, tags: ['a'], gone: null, run: () => 1, ratio: Number.NaN })
    expect(changes).toEqual({ ok: 'yes' })
    expect(warnings).toEqual(
      ['address', 'tags', 'gone', 'run', 'ratio'].map((key) => `setContactDetails(): "${key}" is not a string, number or boolean; dropped`),
    )
  })

  test('cuts values longer than 300 characters, and keeps 300 as they are', () => {
    const { changes, warnings } = normalizeContactDetails({ note: 'x'.repeat(301), fits: 'y'.repeat(300) })
    expect(changes).toEqual({ note: 'x'.repeat(300), fits: 'y'.repeat(300) })
    expect(warnings).toEqual(['setContactDetails(): "note" is longer than 300 characters; cut'])
  })

  test('keeps at most 13 fields, counting those set before, while updates of known keys still apply', () => {
    const current = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]))
    const { changes, warnings } = normalizeContactDetails({ k0: 'updated', thirteenth: 13, fourteenth: 14 }, current)
    expect(changes).toEqual({ k0: 'updated', thirteenth: 13 })
    expect(warnings).toEqual(['setContactDetails(): at most 13 fields; "fourteenth" dropped'])
  })

  test('warns when two keys become the same snake_case key; the last one wins', () => {
    const { changes, warnings } = normalizeContactDetails({ firstName: 'Ada', first_name: 'Augusta' })
    expect(changes).toEqual({ first_name: 'Augusta' })
    expect(warnings).toEqual(['setContactDetails(): "first_name" becomes "first_name" like another key; the last one wins'])
  })

  test('drops keys without letters or digits', () => {
    expect(normalizeContactDetails({ '!!!': 'x' })).toEqual({ changes: {}, warnings: ['setContactDetails(): the key "!!!" has no letters or digits; dropped'] })
  })

  test.each([['a string', 'plan=pro'], ['an array', [['plan', 'pro']]], ['null', null]])('refuses %s instead of an object', (_, input) => {
    expect(normalizeContactDetails(input)).toEqual({ changes: {}, warnings: ['setContactDetails() needs a plain object such as { plan: "pro" }'] })
  })
})
