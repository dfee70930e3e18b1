import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { listStore } from '../../../server/desk/list-store.ts'
import { searchQuery } from '../../../server/desk/search-query.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

describe('migration 24: the desk search keyed by conversation', () => {
  test('what 0017 indexed is found again, what it had not reached is left to the indexer, and deletes still reach the index', () => {
    const db = seededDatabase({ before: 24, at })
    db.exec(`
      INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES
        ('C1', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1), ('C2', 'B', 'P', 'web', 'bot', '${at}', '${at}', 2);
      INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES
        ('M1', 'C1', 1, 'visitor', '{"kind":"text","text":"where is my parcel"}', '${at}'),
        ('M2', 'C2', 2, 'visitor', '{"kind":"text","text":"another parcel"}', '${at}'),
        ('M3', 'C2', 2, 'bot', '{"kind":"text","text":"a parcel, you say"}', '${at}'),
        ('M4', 'C1', 1, 'visitor', '{"kind":"text","text":"unindexed parcel"}', '${at}');
      INSERT INTO desk_message_search (rowid, text) SELECT rowid, json_extract(content, '$.text') FROM messages WHERE id IN ('M1', 'M2');
      UPDATE desk_message_search_cursor SET last_rowid = (SELECT rowid FROM messages WHERE id = 'M3');
    `)
    migrate(db)
    const keys = db.query("SELECT rowid >> 32 AS seq, rowid & 4294967295 AS message FROM desk_message_search WHERE desk_message_search MATCH 'parcel' ORDER BY rowid").all()
    const rowid = (id: string) => (db.query('SELECT rowid FROM messages WHERE id = ?').get(id) as { rowid: number }).rowid
    // The bot's line is not indexed; M4 is past the cursor, for the indexer.
    expect(keys).toEqual([
      { seq: 1, message: rowid('M1') },
      { seq: 2, message: rowid('M2') },
    ])
    const base = { workspaceId: 'W', personId: null, limit: 25 }
    expect(listStore(db).list({ ...base, view: 'open', ...searchQuery('parcel') }).map((row) => row.id)).toEqual(['C2', 'C1'])
    db.exec("DELETE FROM messages WHERE id = 'M2'")
    expect(listStore(db).list({ ...base, view: 'open', ...searchQuery('parcel') }).map((row) => row.id)).toEqual(['C1'])
    db.close()
  })
})
