import { describe, expect, test } from 'bun:test'
import { checkIdentity } from '../../widget/src/identity.ts'

const HASH = 'a'.repeat(64)

describe('identify() checks in the browser', () => {
  test.each([
    ['an e-mail address', 'ada@lovelace.dev'],
    ['an e-mail address with dots, dashes and underscores', 'ada.king_l-1@mail.lovelace.dev'],
    ['a sub-address with +', 'ada+news@lovelace.dev'],
    ['an international phone number', '+44 20 7946 0958'],
    ['a local phone spelling', '(020) 7946-0958'],
  ])('accepts %s as it is, without warnings', (_, value) => {
    expect(checkIdentity(value)).toEqual({ ok: true, userId: value, warnings: [] })
  })

  test.each([
    ['a number', 12345678, 'needs an e-mail address or a phone number as a string'],
    ['an empty string', '  ', 'needs an e-mail address or a phone number as a string'],
    ['an e-mail without a domain', 'ada@', 'is not a valid e-mail address'],
    ['an e-mail without a top-level domain', 'ada@lovelace', 'is not a valid e-mail address'],
    ['a name', 'Ada Lovelace', 'is neither an e-mail address nor a phone number'],
    ['too few digits', '12-34', 'is neither an e-mail address nor a phone number'],
    ['too many digits for E.164', '+1234567890123456', 'is neither an e-mail address nor a phone number'],
    ['an example.com address', 'ada@example.com', '"example.com" is reserved for examples and tests'],
    ['a .test address', 'ada@shop.test', '"shop.test" is reserved'],
    ['a .invalid address', 'ada@mail.invalid', 'reserved'],
    ['an e-mail with a space in it', 'ada king@lovelace.dev', 'is not a valid e-mail address'],
    ['an e-mail with markup in it', '<b>ada</b>@lovelace.dev', 'is not a valid e-mail address'],
    ['an e-mail with a non-ASCII local part', 'adä@lovelace.dev', 'is not a valid e-mail address'],
    ['an e-mail with an apostrophe', "o'brien@lovelace.dev", 'only A-Z a-z 0-9 . _ - + before the @'],
  ])('refuses %s with a clear problem', (_, value, problem) => {
    const check = checkIdentity(value)
    expect(check.ok).toBe(false)
    expect(check.ok === false && check.problem).toContain(problem)
  })

  test('refuses a value longer than 100 characters, and accepts exactly 100', () => {
    const local = (n: number) => `${'a'.repeat(n)}@lovelace.dev`
    expect(checkIdentity(local(100 - '@lovelace.dev'.length)).ok).toBe(true)
    const long = checkIdentity(local(101 - '@lovelace.dev'.length))
    expect(long.ok === false && long.problem).toContain('longer than 100 characters')
  })

  test('counts every character: nothing is dropped before the length is checked', () => {
    const value = `${'a'.repeat(80)}${'+'.repeat(30)}@lovelace.dev`
    const check = checkIdentity(value)
    expect(check.ok === false && check.problem).toContain('longer than 100 characters')
  })

  test.each([
    ['an e-mail address with capitals', 'Ada@Lovelace.dev', 'a lower-case e-mail address'],
    ['a phone number with spaces', '+44 20 7946 0958', 'an E.164 number'],
    ['a local phone spelling', '020 7946 0958', 'an E.164 number'],
  ])('warns that with a hash %s will be refused', (_, value, form) => {
    const check = checkIdentity(value, { hash: HASH })
    expect(check.ok).toBe(true)
    expect(check.ok && check.warnings).toEqual([expect.stringContaining(form)])
    expect(check.ok && check.warnings[0]).toContain('(4010)')
  })

  test('a canonical user id with a hash gets no warning', () => {
    expect(checkIdentity('+442079460958', { hash: HASH })).toEqual({ ok: true, userId: '+442079460958', hash: HASH, warnings: [] })
    expect(checkIdentity('ada+news@lovelace.dev', { hash: HASH })).toEqual({ ok: true, userId: 'ada+news@lovelace.dev', hash: HASH, warnings: [] })
  })

  test('takes a hex HMAC-SHA256 as options.hash, lower-cased', () => {
    expect(checkIdentity('ada@lovelace.dev', { hash: HASH.toUpperCase() })).toEqual({ ok: true, userId: 'ada@lovelace.dev', hash: HASH, warnings: [] })
  })

  test.each([['too short', 'abc'], ['not hex', 'z'.repeat(64)], ['not a string', 42]])('refuses a hash that is %s', (_, hash) => {
    const check = checkIdentity('ada@lovelace.dev', { hash })
    expect(check.ok === false && check.problem).toContain('options.hash must be the hex HMAC-SHA256')
  })
})
