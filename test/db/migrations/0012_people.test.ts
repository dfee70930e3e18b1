import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

describe('migration 12: people, sessions and one-time tokens', () => {
  test('an existing database gains the tables, its data untouched', () => {
    const db = seededDatabase({ before: 12 })
    expect(migrate(db).applied.slice(0, 2)).toEqual(['0012_people', '0013_chatbot_model_settings'])
    expect(db.query('SELECT id FROM chatbots').all()).toEqual([{ id: 'B' }])
    expect(db.query('SELECT count(*) AS n FROM users').get()).toEqual({ n: 0 })
  })

  test('an e-mail is unique per workspace whatever its case, and free in another workspace', () => {
    const db = seededDatabase()
    db.exec(`INSERT INTO workspaces VALUES ('W2', 'w2', '${at}')`)
    const insert = db.query(`INSERT INTO users (id, workspace_id, email, display_name, role, created_at) VALUES (?, ?, ?, 'n', 'agent', '${at}')`)
    insert.run('U1', 'W', 'Sam@acme.io')
    expect(() => insert.run('U2', 'W', 'sam@ACME.IO')).toThrow(/UNIQUE/)
    insert.run('U3', 'W2', 'sam@acme.io')
    expect(() => db.query(`INSERT INTO users (id, workspace_id, email, display_name, role, created_at) VALUES ('U4', 'W', 'x@acme.io', 'n', 'owner', '${at}')`).run()).toThrow(/CHECK/)
  })

  test("a workspace's removal takes its people, their sessions and their links with it", () => {
    const db = seededDatabase()
    db.exec(`
      INSERT INTO users (id, workspace_id, email, display_name, role, created_at) VALUES ('U1', 'W', 'a@acme.io', 'A', 'admin', '${at}');
      INSERT INTO sessions (id, hash, user_id, workspace_id, created_at, last_seen_at, expires_at) VALUES ('S1', 'h', 'U1', 'W', '${at}', '${at}', '${at}');
      INSERT INTO one_time_tokens (hash, purpose, workspace_id, user_id, created_at, expires_at) VALUES ('t', 'invite', 'W', 'U1', '${at}', '${at}');
      DELETE FROM workspaces WHERE id = 'W';
    `)
    for (const table of ['users', 'sessions', 'one_time_tokens']) expect(db.query(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 })
  })
})
