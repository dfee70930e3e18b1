import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { oauthStore } from '../../../server/mcp/oauth-store.ts'
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

  test("grants and states go with their integration; a grant under other settings reads as nothing; a state works once and not after it expires", () => {
    const db = seededDatabase()
    db.run(`INSERT INTO integrations (id, chatbot_id, type, name, is_active, config, secrets, public_key, created_at, updated_at)
            VALUES ('I', 'B', 'mcp', 'crm', 1, '{}', '{}', NULL, '${at}', NULL)`)
    const store = oauthStore(db)
    store.update('I', 'binding-1', { tokens: { access_token: 'a', token_type: 'Bearer' } }, at)
    expect(store.grant('I', 'binding-1').tokens?.access_token).toBe('a')
    expect(store.grant('I', 'binding-2')).toEqual({ discovery: null, client: null, tokens: null, needsAuthorization: false, wantedScope: null })
    store.savePending('h1', { integrationId: 'I', binding: 'binding-1', codeVerifier: 'v', expiresAt: 2000 }, 5)
    store.savePending('h2', { integrationId: 'I', binding: 'binding-1', codeVerifier: 'v', expiresAt: 1000 }, 5)
    expect(store.takePending('h1', 1500)?.codeVerifier).toBe('v')
    expect(store.takePending('h1', 1500)).toBeNull()
    expect(store.takePending('h2', 1500)).toBeNull()
    // At most `keep` per integration: the oldest go first.
    for (let i = 0; i < 7; i++) store.savePending(`k${i}`, { integrationId: 'I', binding: 'b', codeVerifier: 'v', expiresAt: 10_000 + i }, 5)
    expect(db.query('SELECT state_hash FROM mcp_oauth_states ORDER BY expires_at').all()).toEqual(['k2', 'k3', 'k4', 'k5', 'k6'].map((state_hash) => ({ state_hash })))
    db.run("DELETE FROM integrations WHERE id = 'I'")
    expect(db.query('SELECT (SELECT count(*) FROM mcp_oauth_grants) + (SELECT count(*) FROM mcp_oauth_states) AS n').get()).toEqual({ n: 0 })
  })
})
