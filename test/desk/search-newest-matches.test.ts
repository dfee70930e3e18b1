import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { type ListFilter, listQuery, listStore, NEWEST_MATCHES } from '../../server/desk/list-store.ts'
import { messageIndexer } from '../../server/desk/message-indexer.ts'
import { messageSearchStore } from '../../server/desk/message-search-store.ts'
import { searchQuery } from '../../server/desk/search-query.ts'
import { eventBus } from '../../server/events/domain-events.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { removeSeededDatabases, seededDatabase } from '../support/seeded-database.ts'

/** More conversations with the common word than a search reads first. */
const CONVERSATIONS = NEWEST_MATCHES + 1500
let db: Database

beforeAll(async () => {
  db = seededDatabase()
  const contact = db.query("INSERT INTO contacts (id, chatbot_id, details, created_at) VALUES (?, 'B', '{}', '2026-01-01T00:00:00.000Z')")
  const conversation = db.query(
    `INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, updated_at, last_message_at, seq)
     VALUES (?, 'B', ?, 'web', ?, ?, ?, ?, ?)`,
  )
  const message = db.query(`INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES (?, ?, ?, 'visitor', ?, ?)`)
  const text = (words: string) => JSON.stringify({ kind: 'text', text: words })
  db.transaction(() => {
    for (let n = 1; n <= CONVERSATIONS; n++) {
      const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
      contact.run(`P${n}`)
      conversation.run(`C${n}`, `P${n}`, n % 3 === 0 ? 'closed' : 'bot', at, at, at, n)
      // Every conversation has the common word; the newest third have it twice (more matches than conversations).
      message.run(`M${n}`, `C${n}`, n, text(n % 500 === 1 ? `an invoice for parcel ${n}` : `my order number ${n}`), at)
      if (n > (2 * CONVERSATIONS) / 3) message.run(`M${n}x`, `C${n}`, n, text('the order again'), at)
    }
    // Old conversations whose newest message, stored last, is the only one with a word:
    // their matches come after every other in time, but their conversations are old.
    for (const n of [10, 20, 40]) message.run(`M${n}late`, `C${n}`, n, text('late refund question'), '2026-02-01T00:00:00.000Z')
  })()
  const indexer = messageIndexer({ store: messageSearchStore(db), events: eventBus(), logger: createLogger('silent', memorySink()) })
  await indexer.caughtUp()
  indexer.close()
}, 60_000)
afterAll(() => {
  db.close()
  removeSeededDatabases()
})

/** What the page is when every match is read (the query without the newest matches first). */
const everyMatch = (filter: ListFilter) => {
  const { sql, params } = listQuery(filter)
  return (db.query(sql).all(params as never) as { id: string }[]).map((row) => row.id)
}

describe('a message search reads the newest matches first and still gives the page every match gives', () => {
  const base = { workspaceId: 'W', personId: null, limit: 25 }
  const cases: [string, ListFilter][] = [
    ['a word every conversation has', { ...base, view: 'open', ...searchQuery('order') }],
    ['the same, its second page', { ...base, view: 'open', after: { seq: CONVERSATIONS - 40 }, ...searchQuery('order') }],
    ['the same, a page far back', { ...base, view: 'open', after: { seq: 300 }, ...searchQuery('order') }],
    ['the same, closed ones', { ...base, view: 'closed', ...searchQuery('order') }],
    ['a rare word', { ...base, view: 'open', ...searchQuery('invoice') }],
    ['a word only old conversations have, in their newest messages', { ...base, view: 'open', ...searchQuery('refund') }],
    ['two words', { ...base, view: 'bot', ...searchQuery('order number') }],
    ['the waiting view', { ...base, view: 'waiting', ...searchQuery('order') }],
  ]
  for (const [name, filter] of cases) {
    test(name, () => {
      const found = listStore(db).list(filter).map((row) => row.id)
      expect(found).toEqual(everyMatch(filter))
      if (name === 'a word only old conversations have, in their newest messages') expect(found).toEqual(['C40', 'C20', 'C10'])
      if (name === 'a word every conversation has') expect(found).toHaveLength(25)
    })
  }
})
