import { expect, test } from 'bun:test'
import { initialsOf } from '../../widget/src/initials.ts'

test.each([
  ['Maya Lin', 'ML'],
  ['sam', 'S'],
  ['  Ada   King  Lovelace ', 'AK'],
  ['Agent', 'A'],
  ['Élodie Ñúñez', 'ÉÑ'],
  ['\u{1F600} Joy', '\u{1F600}J'],
  ['', ''],
])('the initials of %p are %p', (name, initials) => {
  expect(initialsOf(name)).toBe(initials)
})
