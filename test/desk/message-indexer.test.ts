import type { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { dirname, join } from 'node:path'
import { backup } from '../../server/cli/backup.ts'
import { migrate } from '../../server/db/migrate.ts'
import { openDatabase } from '../../server/db/open-database.ts'
import { listStore } from '../../server/desk/list-store.ts'
import { type MessageIndexerTuning, messageIndexer } from '../../server/desk/message-indexer.ts'
import { messageSearchStore } from '../../server/desk/message-search-store.ts'
import { searchQuery } from '../../server/desk/search-query.ts'
import { eventBus } from '../../server/events/domain-events.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { removeSeededDatabases, seededDatabase } from '../support/seeded-database.ts'

const at = '2026-01-01T00:00:00.000Z'
const open: { close(): void }[] = []
afterEach(() => {
  for (const item of open.splice(0)) item.close()
  removeSeededDatabases()
})

function conversation(db: Database, id: string, seq: number) {
  db.query(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES (?, 'B', 'P', 'web', 'bot', ?, ?, ?)`).run(id, at, at, seq)
}

let serial = 0
function says(db: Database, conversationId: string, role: string, text: string) {
  const seq = (db.query('SELECT seq FROM conversations WHERE id = ?').get(conversationId) as { seq: number }).seq
  db.query('INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    `M${String(++serial).padStart(6, '0')}`,
    conversationId,
    seq,
    role,
    JSON.stringify({ kind: 'text', text }),
    at,
  )
}

/** The conversations the desk's search finds for `q`. */
const found = (db: Database, q: string) => listStore(db).list({ workspaceId: 'W', personId: null, limit: 100, view: 'open', ...searchQuery(q) }).map((row) => row.id)

/** The indexer as the app runs it, on a real database file, with an event bus of its own. */
function startIndexer(db: Database, tuning: MessageIndexerTuning = {}) {
  const events = eventBus()
  const store = messageSearchStore(db)
  let batches = 0
  const counted = { ...store, indexNext: (limit: number) => (batches++, store.indexNext(limit)) }
  const indexer = messageIndexer({ store: counted, events, logger: createLogger('silent', memorySink()), tuning: { delayMs: 20, ...tuning } })
  open.push(indexer)
  const announce = (conversationId: string) =>
    events.emit('conversation.messages', { conversation: { id: conversationId, chatbot_id: 'B' } as never, messages: [] })
  return { indexer, announce, batches: () => batches }
}

/** Conversations C1 and C2, the visitor saying `first` in one and `second` in the other, indexed. */
async function twoConversationsIndexed(db: Database, first: string, second: string) {
  const started = startIndexer(db)
  conversation(db, 'C1', 1)
  conversation(db, 'C2', 2)
  says(db, 'C1', 'visitor', first)
  says(db, 'C2', 'visitor', second)
  started.announce('C2')
  await started.indexer.caughtUp()
  return started
}

describe('the desk search indexer', () => {
  test("a chat turn's messages are not indexed in its transaction; what visitors and agents wrote is found once the indexer ran", async () => {
    const db = seededDatabase()
    const { indexer, announce } = startIndexer(db)
    await indexer.caughtUp()
    conversation(db, 'C1', 1)
    db.transaction(() => {
      says(db, 'C1', 'visitor', 'where is my parcel')
      says(db, 'C1', 'bot', 'a person will answer about the parcel')
      says(db, 'C1', 'agent', 'your kumquats ship today')
    })()
    expect(found(db, 'parcel')).toEqual([])
    announce('C1')
    await indexer.caughtUp()
    expect(found(db, 'parcel')).toEqual(['C1'])
    expect(found(db, 'kumq')).toEqual(['C1'])
    // The bot's own lines are not searched: they would match every conversation.
    expect(found(db, 'person')).toEqual([])
    expect(indexer.longestBatchMs()).toBeGreaterThan(0)
  })

  test('a message stored before a restart and not yet indexed is found after the restart', async () => {
    const db = seededDatabase()
    const first = startIndexer(db)
    await first.indexer.caughtUp()
    conversation(db, 'C1', 1)
    says(db, 'C1', 'visitor', 'my invoice is wrong')
    // The server stops (or crashes) before the batch's delay is up.
    first.announce('C1')
    first.indexer.close()
    const file = db.filename
    db.close()
    const reopened = openDatabase(file)
    open.push(reopened)
    migrate(reopened)
    expect(found(reopened, 'invoice')).toEqual([])
    const { indexer } = startIndexer(reopened)
    await indexer.caughtUp()
    expect(found(reopened, 'invoice')).toEqual(['C1'])
  })

  test('a backlog larger than a batch is indexed in bounded batches, one after the other', async () => {
    const db = seededDatabase()
    for (let n = 1; n <= 7; n++) {
      conversation(db, `C${n}`, n)
      for (let i = 0; i < 5; i++) says(db, `C${n}`, 'visitor', `order ${n}-${i} has walrus${n} stickers`)
    }
    const { indexer, batches } = startIndexer(db, { batchSize: 10 })
    await indexer.caughtUp()
    expect(batches()).toBe(4)
    for (let n = 1; n <= 7; n++) expect(found(db, `walrus${n}`)).toEqual([`C${n}`])
  })

  test("a deleted conversation's messages leave the search, indexed or not yet", async () => {
    const db = seededDatabase()
    const { indexer, announce } = await twoConversationsIndexed(db, 'keep this marmalade', 'delete this marmalade')
    expect(found(db, 'marmalade')).toEqual(['C2', 'C1'])
    db.exec("DELETE FROM conversations WHERE id = 'C2'")
    expect(found(db, 'marmalade')).toEqual(['C1'])

    // Deleted before the indexer got to it: never indexed, and no harm to what follows.
    conversation(db, 'C3', 3)
    says(db, 'C3', 'visitor', 'gone before indexing: quince')
    db.exec("DELETE FROM conversations WHERE id = 'C3'")
    announce('C3')
    await indexer.caughtUp()
    expect(found(db, 'quince')).toEqual([])
  })

  test("a new message that takes a deleted message's rowid is still indexed", async () => {
    const db = seededDatabase()
    const { indexer, announce } = await twoConversationsIndexed(db, 'first apricot', 'newest apricot')
    const newest = (db.query('SELECT max(rowid) AS rowid FROM messages').get() as { rowid: number }).rowid
    db.exec("DELETE FROM conversations WHERE id = 'C2'")
    conversation(db, 'C3', 3)
    says(db, 'C3', 'visitor', 'a nectarine')
    // SQLite hands the newest rowid out again once its row is gone.
    expect(db.query("SELECT rowid FROM messages WHERE conversation_id = 'C3'").get()).toEqual({ rowid: newest })
    announce('C3')
    await indexer.caughtUp()
    expect(found(db, 'nectarine')).toEqual(['C3'])
    expect(found(db, 'apricot')).toEqual(['C1'])
  })

  test('waits while the connection is inside an open write batch, then indexes', async () => {
    const db = seededDatabase()
    const { indexer, announce } = startIndexer(db, { delayMs: 0 })
    await indexer.caughtUp()
    conversation(db, 'C1', 1)
    db.exec('BEGIN IMMEDIATE')
    says(db, 'C1', 'visitor', 'batched persimmon')
    announce('C1')
    await Bun.sleep(30)
    expect(found(db, 'persimmon')).toEqual([])
    db.exec('COMMIT')
    await indexer.caughtUp()
    expect(found(db, 'persimmon')).toEqual(['C1'])
  })

  // The index is keyed by message rowid: a backup that renumbered rowids would point words at other messages.
  test('a backup (VACUUM INTO) of a database with deleted messages still finds each word in its own conversation', async () => {
    const db = seededDatabase()
    const { indexer, announce } = startIndexer(db)
    for (let n = 1; n <= 4; n++) {
      conversation(db, `C${n}`, n)
      says(db, `C${n}`, 'visitor', `word${n} in conversation ${n}`)
    }
    announce('C4')
    await indexer.caughtUp()
    // Gaps in the rowids, as deleted conversations leave them.
    db.exec("DELETE FROM conversations WHERE id IN ('C1', 'C3')")
    const copy = backup(db.filename, join(dirname(db.filename), 'backup', 'copy.db'))
    const restored = openDatabase(copy)
    open.push(restored)
    expect(found(restored, 'word2')).toEqual(['C2'])
    expect(found(restored, 'word4')).toEqual(['C4'])
    expect(found(restored, 'word1')).toEqual([])
  })
})
