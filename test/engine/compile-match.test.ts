import { describe, expect, test } from 'bun:test'
import { compileMatch, MATCH_INPUT_LIMIT, matchesPattern } from '../../server/engine/compile-match.ts'

describe('compileMatch', () => {
  test('a leading (?i) ignores case and is not part of the pattern', () => {
    expect(matchesPattern('(?i)^yes$', 'YeS')).toBe(true)
    expect(matchesPattern('(?i)^yes$', '(?i)yes')).toBe(false)
  })

  test('(?i) elsewhere than at the start is not special (and here not valid JavaScript)', () => {
    expect(compileMatch('^(?i)yes$')).toBeNull()
  })

  test('without (?i) case counts', () => {
    expect(matchesPattern('yes', 'YES')).toBe(false)
    expect(matchesPattern('yes', 'oh yes')).toBe(true)
  })

  test('the same pattern gives the same compiled matcher (cached)', () => {
    expect(compileMatch('cache(d)?')).toBe(compileMatch('cache(d)?') as NonNullable<ReturnType<typeof compileMatch>>)
  })

  test('an invalid pattern gives null, also when asked again', () => {
    expect(compileMatch('[unclosed')).toBeNull()
    expect(compileMatch('[unclosed')).toBeNull()
    expect(matchesPattern('[unclosed', '[unclosed')).toBe(false)
  })

  test('a pattern published before the matcher refused lookarounds and backreferences never matches, and does not throw', () => {
    for (const pattern of ['price(?= list)', '(?<!no )thanks', '(a)\\1', '(?<w>a)\\k<w>']) {
      expect(compileMatch(pattern)).toBeNull()
      expect(matchesPattern(pattern, 'price list thanks aa')).toBe(false)
    }
  })

  test('a test never depends on an earlier one (no global lastIndex state)', () => {
    expect([1, 2, 3].map(() => matchesPattern('a', 'a'))).toEqual([true, true, true])
  })

  test('only the first MATCH_INPUT_LIMIT characters are matched', () => {
    expect(matchesPattern('needle', `${'x'.repeat(MATCH_INPUT_LIMIT - 6)}needle`)).toBe(true)
    expect(matchesPattern('needle', `${'x'.repeat(MATCH_INPUT_LIMIT - 5)}needle`)).toBe(false)
  })

  test('the cache stays bounded: after many patterns the first is compiled afresh', () => {
    const first = compileMatch('bounded-0')
    for (let i = 1; i <= 1000; i++) compileMatch(`bounded-${i}`)
    const again = compileMatch('bounded-0')
    expect(again).not.toBeNull()
    expect(again).not.toBe(first as NonNullable<typeof first>)
  })
})

/** The fastest of three runs, in milliseconds: noise (a GC pause, another process) only adds time. */
function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < 3; i++) {
    const start = performance.now()
    run()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

/**
 * How long a pattern takes on a text, against a typical pattern (the docs' example) on the
 * same text, measured in the same test. A backtracking matcher on these patterns doubles its
 * time with each few characters; a linear one stays within a constant factor of the baseline.
 */
function slowdown(pattern: string, text: string): number {
  const typical = '(?i)\\b(price|pricing|quote)\\b'
  const baseline = fastest(() => matchesPattern(typical, text))
  return fastest(() => matchesPattern(pattern, text)) / Math.max(baseline, 0.001)
}

describe('ReDoS: no visitor text makes a published pattern backtrack', () => {
  // Reported against the compiled binary (issue 17): all four passed the old safety check, and
  // 36 `a`s made (a|aa)*b block the server for about a second per message.
  const reported: [string, string[]][] = [
    ['(a|aa)*b', ['a']],
    ['(a|a)*$', ['a']],
    ['^(\\w|\\d)+$', ['1', 'a']],
    ['^(a?){30}a{30}$', ['a']],
  ]
  const lengths = [8, 16, 24, 32, 48, 100, MATCH_INPUT_LIMIT, 4096]
  for (const [pattern, units] of reported) {
    test(`${pattern} stays within 100x a typical pattern on texts of its own characters, up to the longest message`, () => {
      const texts = lengths.flatMap((length) => units.flatMap((unit) => [unit.repeat(length), `${unit.repeat(length - 1)}!`]))
      // Stops at the first slow text: on a backtracking matcher the next ones would take hours.
      let slow: string | undefined
      for (const text of texts) {
        const ratio = slowdown(pattern, text)
        if (ratio < 100) continue
        slow = `${text.length} characters ending ${JSON.stringify(text.slice(-2))}: ${ratio.toFixed(0)}x`
        break
      }
      expect(slow).toBeUndefined()
    })
  }

  test('the reported patterns still mean what they say', () => {
    expect(matchesPattern('(a|aa)*b', 'aaab')).toBe(true)
    expect(matchesPattern('(a|aa)*b', 'aaaa')).toBe(false)
    expect(matchesPattern('^(\\w|\\d)+$', 'abc123')).toBe(true)
    expect(matchesPattern('^(\\w|\\d)+$', 'abc 123')).toBe(false)
    expect(matchesPattern('^(a?){30}a{30}$', 'a'.repeat(45))).toBe(true)
    expect(matchesPattern('^(a?){30}a{30}$', 'a'.repeat(61))).toBe(false)
  })
})
