import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

describe('migration 18: when an API key was last used', () => {
  test('existing keys keep everything and have not been used yet', () => {
    const db = seededDatabase({ before: 18 })
    db.query("INSERT OR IGNORE INTO workspaces (id, name, created_at) VALUES ('W18', 'Old', '2026-01-01T00:00:00.000Z')").run()
    db.query(
      "INSERT INTO api_keys (id, workspace_id, name, prefix, hash, created_at) VALUES ('K18', 'W18', 'old key', 'pk_old00001', 'ab', '2026-01-01T00:00:00.000Z')",
    ).run()
    const before = db.query('SELECT id, workspace_id, name, prefix, hash, created_at, revoked_at FROM api_keys').all()
    expect(before.length).toBeGreaterThan(0)
    expect(migrate(db).applied[0]).toEqual('0018_api_key_last_used')
    expect(db.query('SELECT id, workspace_id, name, prefix, hash, created_at, revoked_at FROM api_keys').all()).toEqual(before)
    expect(db.query('SELECT last_used_at FROM api_keys').all()).toEqual(before.map(() => ({ last_used_at: null })))
  })
})
