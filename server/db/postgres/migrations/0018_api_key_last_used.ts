import type { PostgresMigration } from '../migration.ts'

export const apiKeyLastUsed: PostgresMigration = {
  id: 18,
  name: 'api_key_last_used',
  sql: `
    ALTER TABLE api_keys ADD COLUMN last_used_at text;
  `,
}
