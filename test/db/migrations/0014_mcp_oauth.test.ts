import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

describe('migration 14: OAuth grants and started authorizations of mcp integrations', () => {
  test('an existing database gains the tables empty, its integrations untouched', () => {
    const db = seededDatabase({ before: 14 })
    db.run(`INSERT INTO integrations (id, chatbot_id, type, name, is_active, config, secrets, public_key, created_at, updated_at)
            VALUES ('I', 'B', 'mcp', 'crm', 1, '{"url":"https://crm.example.com/mcp","auth":{"type":"oauth"}}', '{}', NULL, '${at}', NULL)`)
    const before = db.query('SELECT * FROM integrations').all()
    expect(migrate(db).applied.slice(0, 1)).toEqual(['0014_mcp_oauth'])
    expect(db.query('SELECT * FROM integrations').all()).toEqual(before)
    expect(db.query('SELECT count(*) AS n FROM mcp_oauth_grants').get()).toEqual({ n: 0 })
    expect(db.query('SELECT count(*) AS n FROM mcp_oauth_states').get()).toEqual({ n: 0 })
  })
  // What the store does with these tables: test/mcp/oauth-store.test.ts, on both databases.
})
