import { describe, expect, test } from 'bun:test'
import { mergeTimeline, newestMessageId } from '../../../app/src/desk/timeline.ts'
import type { TimelineItem } from '../../../app/src/types.ts'

const message = (id: string, at: string): TimelineItem => ({
  type: 'message',
  at,
  message: { id, conversation_id: 'c', role: 'visitor', content: { kind: 'text', text: id }, created_at: at },
})
const note = (id: string, at: string): TimelineItem => ({ type: 'note', at, note: { id, conversation_id: 'c', author: null, text: id, created_at: at } })
const event = (id: number, at: string): TimelineItem => ({ type: 'event', at, event: { id, kind: 'closed', at, actor: null, data: {} } })
const keys = (items: TimelineItem[]) => items.map((item) => (item.type === 'message' ? item.message.id : item.type === 'note' ? item.note.id : `e${item.event.id}`))

describe("a conversation's timeline on the desk", () => {
  test('an item heard twice (fetched, then pushed by the socket) shows once', () => {
    const fetched = [message('m1', '2026-01-01T10:00:00.000Z'), message('m2', '2026-01-01T10:01:00.000Z')]
    const merged = mergeTimeline(fetched, [message('m2', '2026-01-01T10:01:00.000Z'), message('m3', '2026-01-01T10:02:00.000Z'), message('m3', '2026-01-01T10:02:00.000Z')])
    expect(keys(merged)).toEqual(['m1', 'm2', 'm3'])
  })

  test('items of the three kinds keep time order; equal times keep arrival order', () => {
    const merged = mergeTimeline([message('m1', '2026-01-01T10:00:00.000Z'), message('m3', '2026-01-01T10:05:00.000Z')], [
      note('n1', '2026-01-01T10:02:00.000Z'),
      event(7, '2026-01-01T10:05:00.000Z'),
    ])
    expect(keys(merged)).toEqual(['m1', 'n1', 'm3', 'e7'])
  })

  test('nothing new gives back the same array (no redraw)', () => {
    const known = [message('m1', '2026-01-01T10:00:00.000Z')]
    expect(mergeTimeline(known, [message('m1', '2026-01-01T10:00:00.000Z')])).toBe(known)
  })

  test('a reply is written against the newest message, never a note or an event', () => {
    expect(newestMessageId([message('m1', 'a'), note('n1', 'b'), event(1, 'c')])).toBe('m1')
    expect(newestMessageId([note('n1', 'b')])).toBeNull()
  })
})
