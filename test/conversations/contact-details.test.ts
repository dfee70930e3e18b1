import { describe, expect, test } from 'bun:test'
import { mergeContactDetails, normalizeContactDetails, toSnakeCase } from '../../server/conversations/contact-details.ts'

describe('contact details', () => {
  test.each([
    ['First Name', 'first_name'],
    ['firstName', 'first_name'],
    ['first-name', 'first_name'],
    ['FIRST_NAME', 'first_name'],
    ['  Plan  tier!! ', 'plan_tier'],
    ['HTTPStatus', 'http_status'],
    ['Café', 'cafe'],
    ['***', ''],
  ])('the key %j becomes %j', (key, expected) => {
    expect(toSnakeCase(key)).toBe(expected)
  })

  test('keeps scalars and drops nested values, null and non-finite numbers without error', () => {
    const result = normalizeContactDetails({
      Plan: 'pro',
      seats: 12,
      'Is Admin': true,
      address: { city: 'Paris' },
      tags: ['a'],
      nothing: null,
      broken: Number.NaN,
    })
    expect(result.details).toEqual({ plan: 'pro', seats: 12, is_admin: true })
    expect(result.dropped.sort()).toEqual(['address', 'broken', 'nothing', 'tags'])
  })

  test('cuts string values to 300 characters and says which', () => {
    const result = normalizeContactDetails({ note: 'x'.repeat(301), short: 'y'.repeat(300) })
    expect((result.details.note as string).length).toBe(300)
    expect(result.details.short).toBe('y'.repeat(300))
    expect(result.truncated).toEqual(['note'])
  })

  test('merging adds new keys, updates existing ones and keeps old ones', () => {
    const merged = mergeContactDetails({ plan: 'free', company: 'Acme' }, { plan: 'pro', seats: 3 })
    expect(merged.details).toEqual({ plan: 'pro', company: 'Acme', seats: 3 })
    expect(merged.overLimit).toEqual([])
  })

  test('past 13 fields the stored keys win and extra new keys are left out', () => {
    const existing = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]))
    const merged = mergeContactDetails(existing, { k0: 'updated', extra1: 1, extra2: 2 })
    expect(Object.keys(merged.details)).toHaveLength(13)
    expect(merged.details.k0).toBe('updated')
    expect(merged.details.extra1).toBe(1)
    expect(merged.overLimit).toEqual(['extra2'])
  })
})
