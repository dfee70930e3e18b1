import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { type ListFilter, listQuery, listStore } from '../../server/desk/list-store.ts'
import { messageIndexer } from '../../server/desk/message-indexer.ts'
import { messageSearchStore } from '../../server/desk/message-search-store.ts'
import { searchQuery } from '../../server/desk/search-query.ts'
import { eventBus } from '../../server/events/domain-events.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { removeSeededDatabases, seededDatabase } from '../support/seeded-database.ts'

/** Conversations in the seeded workspace, over two chatbots and every status. */
const CONVERSATIONS = 20_000
let db: Database

beforeAll(async () => {
  db = seededDatabase()
  db.exec(`
    INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B2', 'W', 'second', '2026-01-01T00:00:00.000Z');
    INSERT INTO users (id, workspace_id, email, display_name, role, created_at) VALUES ('U', 'W', 'u@acme.io', 'U', 'agent', '2026-01-01T00:00:00.000Z');
  `)
  const user = db.query("INSERT INTO users (id, workspace_id, email, display_name, role, created_at) VALUES (?, 'W', ?, ?, 'agent', '2026-01-01T00:00:00.000Z')")
  for (let n = 0; n < 30; n++) user.run(`U${n}`, `u${n}@acme.io`, `U${n}`)
  const contact = db.query("INSERT INTO contacts (id, chatbot_id, external_id, details, created_at) VALUES (?, 'B', ?, ?, '2026-01-01T00:00:00.000Z')")
  const conversation = db.query(
    `INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, updated_at, last_message_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const message = db.query(`INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES (?, ?, ?, 'visitor', ?, ?)`)
  db.transaction(() => {
    for (let n = 1; n <= CONVERSATIONS; n++) {
      const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
      const status = n % 10 === 0 ? 'handoff' : n % 3 === 0 ? 'closed' : 'bot'
      contact.run(`P${n}`, n % 2 === 0 ? `visitor${n}@example.com` : null, JSON.stringify({ name: `Visitor ${n}` }))
      conversation.run(`C${n}`, n % 50 === 0 ? 'B2' : 'B', `P${n}`, n % 7 === 0 ? 'chatapp' : 'web', status, at, at, at, n)
      message.run(`M${n}`, `C${n}`, n, JSON.stringify({ kind: 'text', text: n % 1000 === 0 ? 'invoice missing' : `message number ${n}` }), at)
    }
    // Nobody answered the handoffs: each visitor waits since it (the desk's turn writer would say so).
    db.run("UPDATE desk_threads SET waiting_since = handoff_at WHERE status = 'handoff'")
    db.run("UPDATE desk_threads SET assignee_id = 'U' WHERE seq % 20 = 0")
    db.run("UPDATE desk_threads SET assignee_id = 'U' || (seq % 30) WHERE seq % 20 = 5")
  })()
  // The messages are searchable once the indexer has run, as at the server's start.
  const indexer = messageIndexer({ store: messageSearchStore(db), events: eventBus(), logger: createLogger('silent', memorySink()) })
  await indexer.caughtUp()
  indexer.close()
}, 60_000)
afterAll(() => {
  db.close()
  removeSeededDatabases()
})

const base = { workspaceId: 'W', personId: 'U', limit: 26 }
const cases: [string, ListFilter][] = [
  ['waiting', { ...base, view: 'waiting' }],
  ['waiting, next page', { ...base, view: 'waiting', after: { seq: 100, waitingSince: '2026-01-01T00:01:40.000Z' } }],
  ['mine', { ...base, view: 'mine' }],
  ['open', { ...base, view: 'open' }],
  ['open, next page', { ...base, view: 'open', after: { seq: 15_000 } }],
  ['bot', { ...base, view: 'bot' }],
  ['closed', { ...base, view: 'closed' }],
  ['open, one chatbot', { ...base, view: 'open', chatbotId: 'B2' }],
  ['closed, one chatbot', { ...base, view: 'closed', chatbotId: 'B2' }],
  ['open, one channel', { ...base, view: 'open', channel: 'chatapp' }],
  ['open, searched', { ...base, view: 'open', ...searchQuery('invoice') }],
  ['one conversation', { ...base, view: 'open', conversationId: 'C500' }],
  ['open, one label', { ...base, view: 'open', labelId: 'L1' }],
  ['open, searched with labels', { ...base, view: 'open', ...searchQuery('invoice'), labelKey: 'invoice' }],
]

let analyzed = false
const planOf = (filter: ListFilter) => {
  if ('analyzed' in filter && !analyzed) {
    db.exec('ANALYZE')
    analyzed = true
  }
  const { sql, params } = listQuery(filter)
  return db.query<{ detail: string }, Record<string, string | number | null>>(`EXPLAIN QUERY PLAN ${sql}`).all(params).map((row) => row.detail)
}

describe(`the desk's lists with ${CONVERSATIONS.toLocaleString('en')} conversations`, () => {
  // PRAGMA optimize (run at close) may gather statistics: the plans must hold with and without them.
  for (const [name, filter] of [...cases, ...cases.map(([name, filter]): [string, ListFilter] => [`${name} (after ANALYZE)`, { ...filter, analyzed: true } as ListFilter])]) {
    test(`${name}: read from an index, never a table scan, and no sort of the whole view`, () => {
      const plan = planOf(filter)
      // The page (at most `limit` rows) is the only thing scanned.
      const scans = plan.filter((line) => /^SCAN /.test(line) && line !== 'SCAN p' && !line.includes('VIRTUAL TABLE'))
      expect({ name, scans }).toEqual({ name, scans: [] })
      const threads = plan.find((line) => /^(SEARCH|SCAN) t /.test(line))
      // A search may instead start from its matches (a few conversation numbers), looked up by key.
      const access = filter.messageMatch ? /^SEARCH t USING ((COVERING )?INDEX (sqlite_autoindex_)?desk_threads_|INTEGER PRIMARY KEY)/ : /^SEARCH t USING (COVERING )?INDEX (sqlite_autoindex_)?desk_threads_/
      expect(threads ?? plan.join('\n')).toMatch(access)
      const sorts = plan.filter((line) => line.includes('TEMP B-TREE FOR ORDER BY'))
      // A search sorts what it found (the matches' conversation numbers), not the view.
      expect(sorts.length).toBeLessThanOrEqual(filter.messageMatch ? 2 : 0)
    })
  }

  test('the first page of each view holds the right conversations, in order', () => {
    const lists = listStore(db)
    const seqs = (filter: ListFilter) => lists.list(filter).map((row) => row.seq)
    expect(seqs({ ...base, view: 'waiting', limit: 3 })).toEqual([10, 20, 30])
    expect(seqs({ ...base, view: 'open', limit: 3 })).toEqual([20_000, 19_999, 19_997])
    expect(seqs({ ...base, view: 'closed', limit: 2 })).toEqual([19_998, 19_995])
    expect(seqs({ ...base, view: 'mine', limit: 2 })).toEqual([20_000, 19_980])
    expect(seqs({ ...base, view: 'open', chatbotId: 'B2', limit: 2 })).toEqual([20_000, 19_950])
    expect(seqs({ ...base, view: 'open', ...searchQuery('invoice'), limit: 30 })).toEqual(Array.from({ length: 20 }, (_, index) => 20_000 - index * 1000))
    expect(seqs({ ...base, view: 'open', ...searchQuery('visitor12344@example'), limit: 30 })).toEqual([12_344])
  })
})
