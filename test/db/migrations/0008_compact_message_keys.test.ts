import { afterEach, describe, expect, test } from 'bun:test'
import { messageStore } from '../../../server/conversations/message-store.ts'
import { conversationStore } from '../../../server/conversations/conversation-store.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { migrations } from '../../../server/db/migrations/index.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

/** A database as Parley 0007 left it: two conversations with messages, one of them with client ids. */
function databaseBeforeMigration8() {
  const at = '2026-01-01T00:00:00.000Z'
  const db = seededDatabase({ before: 8, at })
  db.exec(`
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at)
      VALUES ('C1', 'B', 'P', 'web', 'bot', '${at}', '${at}'), ('C2', 'B', 'P', 'web', 'bot', '${at}', '${at}');
    INSERT INTO messages (id, conversation_id, role, client_id, content, created_at) VALUES
      ('M1', 'C1', 'visitor', 'k1', '{"kind":"text","text":"one"}', '${at}'),
      ('M2', 'C1', 'bot', NULL, '{"kind":"text","text":"two"}', '${at}'),
      ('M3', 'C2', 'visitor', 'k1', '{"kind":"text","text":"three"}', '${at}');
  `)
  return db
}

describe('migration 8: messages keyed by a small conversation number', () => {
  test('existing conversations get distinct numbers and their messages keep following them', () => {
    const db = databaseBeforeMigration8()
    migrate(db)
    const seqs = db.query<{ id: string; seq: number }, []>('SELECT id, seq FROM conversations ORDER BY id').all()
    expect(new Set(seqs.map((s) => s.seq)).size).toBe(2)
    const messages = messageStore(db)
    expect(messages.latest('C1', 10).messages.map((m) => m.id)).toEqual(['M1', 'M2'])
    expect(messages.latest('C2', 10).messages.map((m) => m.id)).toEqual(['M3'])
    expect(messages.findByClientId('C2', 'k1')?.id).toBe('M3')
    expect(messages.list('C1', { limit: 10, offset: 0 }).total).toBe(2)
    db.close()
  })

  test('a conversation created afterwards gets the next number, and a client id stays unique per conversation only', () => {
    const db = databaseBeforeMigration8()
    migrate(db)
    const at = '2026-01-02T00:00:00.000Z'
    conversationStore(db).insert({
      id: 'C3', chatbot_id: 'B', contact_id: 'P', channel: 'web', integration_id: null, flow_id: null, flow_version: null,
      status: 'bot', state: null, created_at: at, updated_at: null, last_message_at: at,
    })
    const seq = (id: string) => db.query<{ seq: number }, [string]>('SELECT seq FROM conversations WHERE id = ?').get(id)?.seq
    expect(seq('C3')).toBe(Math.max(seq('C1')!, seq('C2')!) + 1)
    const messages = messageStore(db)
    messages.insert({ id: 'M4', conversation_id: 'C3', role: 'visitor', client_id: 'k1', content: { kind: 'text', text: 'four' }, created_at: at })
    expect(messages.findByClientId('C3', 'k1')?.id).toBe('M4')
    expect(() =>
      messages.insert({ id: 'M5', conversation_id: 'C3', role: 'visitor', client_id: 'k1', content: { kind: 'text', text: 'again' }, created_at: at }),
    ).toThrow('UNIQUE')
    db.close()
  })

  test("listing a conversation's messages reads the compact index, not the whole table", () => {
    const db = databaseBeforeMigration8()
    migrate(db, migrations.filter((m) => m.id <= 8))
    const plan = db
      .query<{ detail: string }, []>(
        "EXPLAIN QUERY PLAN SELECT * FROM messages WHERE conversation_seq = (SELECT seq FROM conversations WHERE id = 'C1') ORDER BY id DESC LIMIT 5",
      )
      .all()
      .map((row) => row.detail)
      .join('\n')
    expect(plan).toContain('messages_by_conversation')
    expect(plan).not.toContain('SCAN messages')
    db.close()
  })
})
