import type { Migration } from '../migration.ts'

export const apiKeyLastUsed: Migration = {
  id: 18,
  name: 'api_key_last_used',
  up(db) {
    db.exec(`
      -- When a key last opened a request, to the minute (rewritten at most once a minute per
      -- key), so the console can show which keys are still in use before one is revoked.
      ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
    `)
  },
}
