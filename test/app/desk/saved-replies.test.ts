import { describe, expect, test } from 'bun:test'
import { matchingReplies } from '../../../app/src/desk/saved-replies.ts'

const replies = ['refund', 'Refund-late', 'hours', 'hello'].map((shortcut, index) => ({ id: String(index), shortcut, text: `text of ${shortcut}` }))

describe('saved replies offered after /', () => {
  test('a slash alone offers them all; letters narrow by shortcut prefix, in any case', () => {
    expect(matchingReplies('/', replies).map((reply) => reply.shortcut)).toEqual(['refund', 'Refund-late', 'hours', 'hello'])
    expect(matchingReplies('/REF', replies).map((reply) => reply.shortcut)).toEqual(['refund', 'Refund-late'])
    expect(matchingReplies('/h', replies).map((reply) => reply.shortcut)).toEqual(['hours', 'hello'])
  })

  test('nothing is offered once the text is more than a shortcut, or without the slash', () => {
    expect(matchingReplies('/refund now', replies)).toEqual([])
    expect(matchingReplies('refund', replies)).toEqual([])
    expect(matchingReplies('see /refund', replies)).toEqual([])
  })

  test('at most eight are offered', () => {
    const many = Array.from({ length: 20 }, (_, index) => ({ id: String(index), shortcut: `a${index}`, text: 't' }))
    expect(matchingReplies('/a', many)).toHaveLength(8)
  })
})
