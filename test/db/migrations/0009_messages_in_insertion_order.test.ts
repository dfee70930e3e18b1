import { afterEach, describe, expect, test } from 'bun:test'
import { messageStore } from '../../../server/conversations/message-store.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'
const text = (value: string) => `{"kind":"text","text":"${value}"}`

/** A database as Parley 0008 left it: two conversations whose messages interleave. */
function databaseBeforeMigration9() {
  const db = seededDatabase({ before: 9, at })
  db.exec(`
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq)
      VALUES ('C1', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1), ('C2', 'B', 'P', 'web', 'bot', '${at}', '${at}', 2);
  `)
  const insert = db.query("INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES (?, ?, ?, 'bot', ?, ?)")
  for (const [id, conversation, seq] of [['M1', 'C1', 1], ['M2', 'C2', 2], ['M3', 'C1', 1], ['M4', 'C2', 2], ['M5', 'C1', 1], ['M7', 'C1', 1]] as const) {
    insert.run(id, conversation, seq, text(id), at)
  }
  return db
}

const ids = (messages: readonly { id: string }[]) => messages.map((m) => m.id)

describe('migration 9: a conversation read in the order its messages were stored', () => {
  test('an upgraded database lists, pages and counts each conversation as before', () => {
    const db = databaseBeforeMigration9()
    migrate(db)
    const messages = messageStore(db)
    expect(ids(messages.latest('C1', 10).messages)).toEqual(['M1', 'M3', 'M5', 'M7'])
    expect(messages.latest('C1', 2)).toMatchObject({ hasMore: true })
    expect(ids(messages.latest('C1', 2).messages)).toEqual(['M5', 'M7'])
    expect(ids(messages.list('C1', { limit: 2, offset: 1 }).items)).toEqual(['M3', 'M5'])
    expect(messages.list('C2', { limit: 10, offset: 0 }).total).toBe(2)
    db.close()
  })

  test('a cursor cuts at its message, and an id that is not stored cuts where it would sort', () => {
    const db = databaseBeforeMigration9()
    migrate(db)
    const messages = messageStore(db)
    expect(ids(messages.after('C1', 'M3', 10))).toEqual(['M5', 'M7'])
    expect(ids(messages.after('C1', 'M2', 10))).toEqual(['M3', 'M5', 'M7'])
    expect(ids(messages.after('C1', 'M6', 10))).toEqual(['M7'])
    expect(ids(messages.after('C1', 'M7', 10))).toEqual([])
    expect(ids(messages.after('C1', 'M9', 10))).toEqual([])
    expect(ids(messages.before('C1', 'M5', 10).messages)).toEqual(['M1', 'M3'])
    expect(ids(messages.before('C1', 'M6', 10).messages)).toEqual(['M1', 'M3', 'M5'])
    expect(ids(messages.before('C1', 'M9', 10).messages)).toEqual(['M1', 'M3', 'M5', 'M7'])
    expect(ids(messages.before('C1', 'M1', 10).messages)).toEqual([])
    expect(messages.before('C1', 'M7', 2)).toMatchObject({ hasMore: true })
    db.close()
  })

  test('new messages follow the stored ones', () => {
    const db = databaseBeforeMigration9()
    migrate(db)
    const messages = messageStore(db)
    messages.insert({ id: 'M8', conversation_id: 'C1', role: 'visitor', client_id: 'k', content: { kind: 'text', text: 'eight' }, created_at: at })
    expect(ids(messages.latest('C1', 2).messages)).toEqual(['M7', 'M8'])
    expect(messages.findByClientId('C1', 'k')?.id).toBe('M8')
    db.close()
  })

  test("the newest page of a conversation is read from the index in order, without sorting or scanning", () => {
    const db = databaseBeforeMigration9()
    migrate(db)
    const plan = db
      .query<{ detail: string }, []>(
        "EXPLAIN QUERY PLAN SELECT * FROM messages WHERE conversation_seq = (SELECT seq FROM conversations WHERE id = 'C1') ORDER BY rowid DESC LIMIT 5",
      )
      .all()
      .map((row) => row.detail)
      .join('\n')
    expect(plan).toContain('messages_by_conversation')
    expect(plan).not.toContain('TEMP B-TREE')
    expect(plan).not.toContain('SCAN messages')
    db.close()
  })
})
