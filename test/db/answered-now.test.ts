import { expect, test } from 'bun:test'
import { answeredNow, NotAnsweredNow } from '../../server/db/answered-now.ts'
import { settled } from '../../server/db/settled.ts'

test('a SQLite store’s answer is read in the caller’s tick, its failure thrown', () => {
  expect(answeredNow(settled(() => 42))).toBe(42)
  expect(answeredNow(settled(() => undefined))).toBeUndefined()
  expect(() =>
    answeredNow(
      settled(() => {
        throw new Error('no such table')
      }),
    ),
  ).toThrow('no such table')
})

test('an answer still on its way (PostgreSQL’s) is refused, not guessed', async () => {
  const later = Bun.sleep(1).then(() => 'late')
  expect(() => answeredNow(later)).toThrow(NotAnsweredNow)
  const failingLater = Bun.sleep(1).then(() => Promise.reject(new Error('unseen')))
  expect(() => answeredNow(failingLater)).toThrow(NotAnsweredNow)
  // Its rejection is handled: nothing reported as unhandled once it settles.
  await Bun.sleep(5)
})
