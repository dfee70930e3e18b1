import { afterEach, describe, expect, test } from 'bun:test'
import { conversationStore } from '../../../server/conversations/conversation-store.ts'
import { migrate } from '../../../server/db/migrate.ts'
import type { openDatabase } from '../../../server/db/open-database.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const day = (n: number) => `2026-01-0${n}T00:00:00.000Z`

/** A database as Parley 0009 left it: three conversations of one chatbot, active on different days. */
function databaseBeforeMigration10() {
  const db = seededDatabase({ before: 10, at: day(1) })
  db.exec(`
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES
      ('C1', 'B', 'P', 'web', 'bot', '${day(1)}', '${day(5)}', 1),
      ('C2', 'B', 'P', 'web', 'handoff', '${day(2)}', '${day(3)}', 2),
      ('C3', 'B', 'P', 'rest-api', 'handoff', '${day(3)}', '${day(4)}', 3);
  `)
  return db
}

const ids = (items: readonly { id: string }[]) => items.map((c) => c.id)
const plan = (db: ReturnType<typeof openDatabase>, sql: string) =>
  db.query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => row.detail).join('\n')

describe('migration 10: the conversation list indexed by status and sorted by last activity when read', () => {
  test('an upgraded database lists a chatbot\'s conversations newest activity first, with and without filters', () => {
    const db = databaseBeforeMigration10()
    migrate(db)
    const store = conversationStore(db)
    const page = { limit: 10, offset: 0 }
    expect(ids(store.list('B', {}, page).items)).toEqual(['C1', 'C3', 'C2'])
    expect(store.list('B', { status: 'handoff' }, page)).toMatchObject({ total: 2 })
    expect(ids(store.list('B', { status: 'handoff' }, page).items)).toEqual(['C3', 'C2'])
    expect(ids(store.list('B', { channel: 'web' }, { limit: 1, offset: 1 }).items)).toEqual(['C2'])
    db.close()
  })

  test('a turn moves its conversation to the top, and a turn that keeps the status leaves it as it was', () => {
    const db = databaseBeforeMigration10()
    migrate(db)
    const store = conversationStore(db)
    store.saveTurn('C2', '{"at":"listen"}', null, day(6), day(6))
    expect(store.get('C2')).toMatchObject({ status: 'handoff', state: '{"at":"listen"}', last_message_at: day(6) })
    expect(ids(store.list('B', {}, { limit: 10, offset: 0 }).items)).toEqual(['C2', 'C1', 'C3'])
    store.saveTurn('C2', null, 'closed', day(7), day(7))
    expect(store.get('C2')).toMatchObject({ status: 'closed', state: '{"at":"listen"}' })
    expect(db.query<{ status: string }, []>("SELECT status FROM conversations WHERE id = 'C2'").get()?.status).toBe('closed')
    expect(store.list('B', { status: 'handoff' }, { limit: 10, offset: 0 }).total).toBe(1)
    db.close()
  })

  test('an inbox of one status is read from the index on chatbot and status', () => {
    const db = databaseBeforeMigration10()
    migrate(db)
    expect(plan(db, "SELECT * FROM conversations WHERE chatbot_id = 'B' AND status = 'handoff' ORDER BY last_message_at DESC")).toContain(
      'conversations_by_chatbot (chatbot_id=? AND status=?)',
    )
    const indexedColumns = db.query<{ name: string }, []>("SELECT name FROM pragma_index_info('conversations_by_chatbot')").all()
    expect(indexedColumns.map((c) => c.name)).toEqual(['chatbot_id', 'status'])
    db.close()
  })
})
