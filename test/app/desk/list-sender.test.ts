import { describe, expect, test } from 'bun:test'
import { senderOf } from '../../../app/src/desk/format.ts'

const at = '2026-11-28T08:00:00.000Z'
const last = (role: string, author: string | null = null) => ({ id: 'm1', role, author, preview: 'Hello', created_at: at })

/** The line before a list row's last message: who wrote it, as the person reading the list would say it. */
describe("the desk list's last sender", () => {
  test('your own reply says You', () => expect(senderOf(last('agent', 'Sam'), 'Sam')).toBe('You'))
  test("a colleague's reply says their name", () => expect(senderOf(last('agent', 'Sam'), 'Lee')).toBe('Sam'))
  test('a reply without a name (an API key) says Agent', () => expect(senderOf(last('agent'), 'Lee')).toBe('Agent'))
  test('the bot and the visitor', () => {
    expect(senderOf(last('bot'), 'Lee')).toBe('Bot')
    expect(senderOf(last('visitor'), 'Lee')).toBe('Visitor')
  })
  test('signed in with an API key (no person): names only', () => expect(senderOf(last('agent', 'Sam'), null)).toBe('Sam'))
})
