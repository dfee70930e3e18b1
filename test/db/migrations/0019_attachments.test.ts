import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

function withConversation(before?: number) {
  const db = seededDatabase(before === undefined ? {} : { before })
  db.exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES ('C', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1)`)
  return db
}

const insert = (db: ReturnType<typeof seededDatabase>, id: string, type = 'image/png', filename = 'a.png', size = 3) =>
  db
    .query(
      `INSERT INTO attachments (id, workspace_id, chatbot_id, conversation_id, key_hash, content_type, byte_size, filename, sha256, uploaded_by, created_at, bytes)
       VALUES (?, 'W', 'B', 'C', 'h', ?, ?, ?, 's', 'visitor', '${at}', ?)`,
    )
    .run(id, type, size, filename, new Uint8Array([1, 2, 3]))

describe('migration 19: attachments', () => {
  test('applies to a database that has conversations', () => {
    const db = withConversation(19)
    expect(migrate(db).applied[0]).toEqual('0019_attachments')
    insert(db, 'A1')
    expect(db.query('SELECT id, byte_size, bytes FROM attachments').all()).toEqual([{ id: 'A1', byte_size: 3, bytes: new Uint8Array([1, 2, 3]) }])
  })

  test('keeps only the allowed types, a named file and a known sender', () => {
    const db = withConversation()
    expect(() => insert(db, 'A1', 'image/svg+xml', 'a.svg')).toThrow(/CHECK/)
    expect(() => insert(db, 'A2', 'text/html', 'a.html')).toThrow(/CHECK/)
    expect(() => insert(db, 'A3', 'image/png', '')).toThrow(/CHECK/)
    expect(() => insert(db, 'A4', 'image/png', 'x'.repeat(201))).toThrow(/CHECK/)
    expect(() => insert(db, 'A5', 'image/png', 'a.png', 0)).toThrow(/CHECK/)
    expect(() =>
      db.exec(`INSERT INTO attachments VALUES ('A6', 'W', 'B', 'C', 'h', 'image/png', 1, 'a.png', 's', 'stranger', '${at}', x'01')`),
    ).toThrow(/CHECK/)
    expect(() => db.exec(`INSERT INTO attachments VALUES ('A7', 'W', 'B', 'nope', 'h', 'image/png', 1, 'a.png', 's', 'visitor', '${at}', x'01')`)).toThrow(/FOREIGN KEY/)
  })

  test("a conversation's removal, or its contact's, or its chatbot's, takes its files with it", () => {
    const db = withConversation()
    insert(db, 'A1')
    db.exec("DELETE FROM contacts WHERE id = 'P'")
    expect(db.query('SELECT count(*) AS n FROM attachments').get()).toEqual({ n: 0 })

    db.exec(`INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('P', 'B', '${at}')`)
    db.exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES ('C', 'B', 'P', 'web', 'bot', '${at}', '${at}', 2)`)
    insert(db, 'A2')
    db.exec("DELETE FROM chatbots WHERE id = 'B'")
    expect(db.query('SELECT count(*) AS n FROM attachments').get()).toEqual({ n: 0 })
  })
})
