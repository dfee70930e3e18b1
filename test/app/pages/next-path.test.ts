import { describe, expect, test } from 'bun:test'
import { safeNext } from '../../../app/src/pages/next-path.ts'

describe('where sign-in goes next', () => {
  test('a path inside the app is kept, query included', () => {
    expect(safeNext('/c/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D?view=mine')).toBe('/c/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D?view=mine')
  })

  test('anything that could leave the site, or loop back to sign-in, goes to the list', () => {
    for (const next of [undefined, '', 'https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', '/sign-in?next=/x']) {
      expect(safeNext(next)).toBe('/')
    }
  })
})
