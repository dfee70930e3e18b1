import { describe, expect, test } from 'bun:test'
import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'
import { countUnread, mergeMessages, newClientId } from '../../widget/src/messages.ts'

const at = (id: string, second: number, role: ChatMessage['role'] = 'bot'): ChatMessage => ({
  id,
  conversation_id: 'c',
  role,
  content: { kind: 'text', text: id },
  created_at: `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
})

describe('the shown conversation', () => {
  test('merging keeps one copy per id, ordered by time then id', () => {
    const shown = [at('b', 2), at('c', 3)]
    const merged = mergeMessages(shown, [at('a', 1), at('c', 3), at('d', 3), at('e', 9)])
    expect(merged.map((m) => m.id)).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  test('merging nothing returns the same list', () => {
    const shown = [at('a', 1)]
    expect(mergeMessages(shown, [])).toBe(shown)
  })

  test('counts unread chatbot, agent and system messages newer than the last look, never the visitor’s own', () => {
    const messages = [at('a', 1), at('b', 2, 'visitor'), at('c', 3, 'agent'), at('d', 4, 'system')]
    expect(countUnread(messages, null)).toBe(3)
    expect(countUnread(messages, '2026-01-01T00:00:01.000Z')).toBe(2)
    expect(countUnread(messages, '2026-01-01T00:00:04.000Z')).toBe(0)
  })

  test('client ids fit the protocol and differ', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newClientId()))
    expect(ids.size).toBe(200)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
  })
})
