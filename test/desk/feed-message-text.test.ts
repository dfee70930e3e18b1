import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { messageJson } from '../../server/conversations/message-json.ts'
import type { Message } from '../../server/conversations/model.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { deskFeed } from '../../server/desk/feed.ts'
import { feedStore } from '../../server/desk/feed-store.ts'
import { migratedDatabase } from '../support/migrated-database.ts'

const messages: Message[] = [
  { id: '01M1', conversation_id: 'C"1', role: 'visitor', client_id: 'c-1', content: { kind: 'text', text: 'hi "there"\n\u2028</script>' }, created_at: '2026-01-01T00:00:00.000Z' },
  { id: '01M2', conversation_id: 'C"1', role: 'agent', author: 'Ann', author_avatar_url: 'https://example.com/a.png', content: { kind: 'text', text: 'hello' }, created_at: '2026-01-01T00:00:01.000Z' },
  { id: '01M3', conversation_id: 'C"1', role: 'bot', content: { kind: 'buttons', text: 'pick', buttons: [{ id: 'a', title: 'A' }] }, created_at: '2026-01-01T00:00:02.000Z' },
]

describe("a message's JSON text, made once for the widget's frame and the desk feed's entry", () => {
  test('is what JSON.stringify writes, and the same text the second time', () => {
    for (const message of messages) {
      expect(messageJson(message)).toBe(JSON.stringify(message))
      expect(messageJson(message)).toBe(messageJson(message))
    }
  })

  test("a feed entry for a message is stored and sent to the desks as JSON.stringify wrote it, and reads back equal", async () => {
    const db = migratedDatabase(join(mkdtempSync(join(tmpdir(), 'parley-feed-text-')), 'parley.db'))
    const feed = deskFeed({ store: feedStore(db), batch: writeBatcher(db, () => {}) })
    // Every desk is sent the text the row stores, made once.
    const sent: string[] = []
    feed.onEntry((_workspace, entry, text) => sent.push(text === JSON.stringify(entry) ? 'as JSON.stringify writes it' : text))
    for (const message of messages) feed.publish('w1', { type: 'message', conversation_id: 'C"1', chatbot_id: 'B\\1', message })
    feed.publish('w1', { type: 'conversation', conversation_id: 'C"1', chatbot_id: 'B\\1', change: 'opened', status: 'bot', assignee_id: null })
    await new Promise<void>((resolve) => setImmediate(resolve))
    const row = db.query<{ event: string }, []>('SELECT event FROM desk_feed').get()
    const expected = [
      ...messages.map((message, i) => ({ type: 'message', conversation_id: 'C"1', chatbot_id: 'B\\1', message, seq: i + 1 })),
      { type: 'conversation', conversation_id: 'C"1', chatbot_id: 'B\\1', change: 'opened', status: 'bot', assignee_id: null, seq: 4 },
    ]
    expect(row?.event).toBe(`[${expected.map((entry) => JSON.stringify(entry)).join(',')}]`)
    expect(sent).toEqual(Array(4).fill('as JSON.stringify writes it'))
    const caught = feed.catchUp('w1', 0)
    expect('entries' in caught && caught.entries).toEqual(expected as never)
  })
})
