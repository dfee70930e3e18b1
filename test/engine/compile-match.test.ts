import { describe, expect, test } from 'bun:test'
import { compileMatch, matchesPattern } from '../../server/engine/compile-match.ts'

describe('compileMatch', () => {
  test('a leading (?i) becomes the ignore-case flag and is not part of the pattern', () => {
    const regex = compileMatch('(?i)^yes$')
    expect(regex?.flags).toBe('i')
    expect(regex?.source).toBe('^yes$')
  })

  test('(?i) elsewhere than at the start is not special (and here not valid JavaScript)', () => {
    expect(compileMatch('^(?i)yes$')).toBeNull()
  })

  test('without (?i) there are no flags', () => {
    expect(compileMatch('yes')?.flags).toBe('')
  })

  test('the same pattern gives the same compiled RegExp (cached)', () => {
    expect(compileMatch('cache(d)?')).toBe(compileMatch('cache(d)?') as RegExp)
  })

  test('an invalid pattern gives null, also when asked again', () => {
    expect(compileMatch('[unclosed')).toBeNull()
    expect(compileMatch('[unclosed')).toBeNull()
    expect(matchesPattern('[unclosed', '[unclosed')).toBe(false)
  })

  test('a test never depends on an earlier one (no global lastIndex state)', () => {
    expect([1, 2, 3].map(() => matchesPattern('a', 'a'))).toEqual([true, true, true])
  })

  test('the cache stays bounded: after many patterns the first is compiled afresh', () => {
    const first = compileMatch('bounded-0')
    for (let i = 1; i <= 1000; i++) compileMatch(`bounded-${i}`)
    const again = compileMatch('bounded-0')
    expect(again?.source).toBe('bounded-0')
    expect(again).not.toBe(first as RegExp)
  })
})
