import { describe, expect, test } from 'bun:test'
import { compileMatchPattern } from '../../../server/flows/match-pattern.ts'
import { nestedQuantifier } from '../../../server/flows/validate/conversation/regex-safety.ts'

describe('nested quantifiers in match patterns', () => {
  const unsafe: [string, string][] = [
    ['(a+)+', '(a+)+'],
    ['^(a*)*$', '(a*)*'],
    ['(?:\\w+\\s?)*x', '(?:\\w+\\s?)*'],
    ['(a|b+){2,9}', '(a|b+){2,9}'],
    ['((ab)+c)+', '((ab)+c)+'],
    ['(x{1,200})+', '(x{1,200})+'],
    ['(a{2,})*', '(a{2,})*'],
    ['(?<word>\\p{L}+\\s)+', '(?<word>\\p{L}+\\s)+'],
    ['([\\w-]+\\.)+com', '([\\w-]+\\.)+'],
  ]
  for (const [pattern, offending] of unsafe) {
    test(`${pattern} is refused, pointing at ${offending}`, () => expect(nestedQuantifier(pattern)).toBe(offending))
  }

  const safe = [
    '\\b(price|pricing)\\b',
    '^(\\d{1,3}\\.){3}\\d{1,3}$',
    '(a+)?',
    '(a+){1}',
    'a+b+c*',
    '[(a+)+]',
    '\\(a+\\)+',
    '\\p{L}+(?:-\\p{L}+)?',
    '(?=a+)b',
    '(ab){2,5}',
    '(x{1,100})+',
    'a{(b)}+',
    '(a{x})+',
  ]
  for (const pattern of safe) {
    test(`${pattern} is accepted`, () => expect(nestedQuantifier(pattern)).toBeUndefined())
  }
})

describe('compiling a match pattern', () => {
  test('a leading (?i) ignores case', () => {
    expect(compileMatchPattern('(?i)^hello$').test('HeLLo')).toBe(true)
    expect(compileMatchPattern('^hello$').test('HeLLo')).toBe(false)
  })

  test('ignoring case covers accented letters', () => {
    expect(compileMatchPattern('(?i)^émile$').test('ÉMILE')).toBe(true)
  })

  test('(?i) anywhere but at the start is not understood', () => {
    expect(() => compileMatchPattern('a(?i)b')).toThrow(SyntaxError)
  })
})
