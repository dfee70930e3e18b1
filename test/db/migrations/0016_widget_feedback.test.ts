import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

function withConversation(before?: number) {
  const db = seededDatabase(before === undefined ? {} : { before })
  db.exec(`
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES ('C', 'B', 'P', 'web', 'closed', '${at}', '${at}', 1);
    INSERT INTO messages (id, conversation_id, conversation_seq, role, author, content, created_at) VALUES ('M1', 'C', 1, 'agent', 'Sam', '{"kind":"text","text":"hi"}', '${at}');
  `)
  return db
}

describe('migration 16: ratings, read marks and agents\' pictures', () => {
  test('existing messages keep everything and have no picture', () => {
    const db = withConversation(16)
    const before = db.query('SELECT id, conversation_id, role, author, content, created_at FROM messages').all()
    expect(migrate(db).applied).toContain('0016_widget_feedback')
    expect(db.query('SELECT id, conversation_id, role, author, content, created_at FROM messages').all()).toEqual(before)
    expect(db.query('SELECT author_avatar_url FROM messages').all()).toEqual([{ author_avatar_url: null }])
  })

  test('a rating is one per conversation and on its scale', () => {
    const db = withConversation()
    const rate = db.query(`INSERT INTO conversation_ratings (conversation_id, scale, score, comment, created_at) VALUES ('C', ?, ?, NULL, '${at}')`)
    expect(() => rate.run('thumbs', 5)).toThrow(/CHECK/)
    expect(() => rate.run('stars', 0)).toThrow(/CHECK/)
    expect(() => rate.run('ten', 1)).toThrow(/CHECK/)
    rate.run('stars', 5)
    expect(() => rate.run('stars', 4)).toThrow(/UNIQUE|PRIMARY/)
  })

  test("a conversation's removal takes its rating and read marks with it", () => {
    const db = withConversation()
    db.exec(`
      INSERT INTO conversation_ratings VALUES ('C', 'thumbs', 1, 'ok', '${at}');
      INSERT INTO conversation_reads VALUES ('C', 'visitor', 'M1', '${at}'), ('C', 'team', 'M1', '${at}');
    `)
    expect(() => db.exec(`INSERT INTO conversation_reads VALUES ('C', 'someone', 'M1', '${at}')`)).toThrow(/CHECK/)
    db.exec("DELETE FROM chatbots WHERE id = 'B'")
    expect(db.query('SELECT count(*) AS n FROM conversation_ratings').get()).toEqual({ n: 0 })
    expect(db.query('SELECT count(*) AS n FROM conversation_reads').get()).toEqual({ n: 0 })
  })
})
