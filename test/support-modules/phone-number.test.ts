import { describe, expect, test } from 'bun:test'
import { normalizePhoneNumber } from '../../server/support/phone-number.ts'

describe('normalizePhoneNumber', () => {
  const london = '+442079460958'
  const sanFrancisco = '+14155552671'

  test.each([
    ['+44 20 7946 0958', undefined],
    ['+442079460958', undefined],
    ['+44 (0)20 7946 0958', undefined],
    ['0044 20 7946 0958', undefined],
    ['00 44 20 7946 0958', undefined],
    ['0044 20 7946 0958', 'GB'],
    ['0044 20 7946 0958', 'US'],
    ['020 7946 0958', 'GB'],
    ['020-7946-0958', 'gb'],
    ['  +44 20 7946 0958  ', 'FR'],
  ])('%p with default country %p is London’s +442079460958', (raw, country) => {
    expect(normalizePhoneNumber(raw, country)).toBe(london)
  })

  test.each([
    ['(415) 555-2671', 'US'],
    ['415.555.2671', 'US'],
    ['1-415-555-2671', 'US'],
    ['011 1 415 555 2671', 'US'],
    ['+1 415 555 2671', undefined],
    ['+1 (415) 555-2671', 'GB'],
    ['001 415 555 2671', 'DE'],
  ])('%p with default country %p is +14155552671', (raw, country) => {
    expect(normalizePhoneNumber(raw, country)).toBe(sanFrancisco)
  })

  test('a local spelling depends on the default country it is read in', () => {
    expect(normalizePhoneNumber('06 12 34 56 78', 'FR')).toBe('+33612345678')
    expect(normalizePhoneNumber('06 12 34 56 78', 'GB')).toBeNull()
  })

  test.each([
    ['020 7946 0958', undefined, 'a local spelling without a default country'],
    ['020 7946 0958', 'XX', 'a local spelling with an unknown default country'],
    ['+44 20 7946', undefined, 'too short'],
    ['+1 555 555 5555', undefined, 'a number in no assigned range'],
    ['+49 1 1234567', undefined, 'a number only the lengths would allow'],
    ['12345', 'US', 'a short code'],
    ['', 'GB', 'nothing'],
    ['   ', 'GB', 'spaces'],
    ['abc', 'US', 'letters'],
    ['call me on +44 20 7946 0958', undefined, 'a sentence around a number'],
    ['jane@example.com', 'GB', 'an e-mail address'],
    ['+1 415 555 2671 ext. 12', undefined, 'an extension, which E.164 cannot hold'],
    ['+1 415 555 2671 x12', undefined, 'a short extension'],
    ['44+2079460958', undefined, 'a plus sign inside'],
    ['+44 20 7946 0958 0000 0000 0000 0000 0000 0000', undefined, 'an over-long spelling'],
  ])('%p with default country %p is refused: %s', (raw, country) => {
    expect(normalizePhoneNumber(raw, country)).toBeNull()
  })
})
