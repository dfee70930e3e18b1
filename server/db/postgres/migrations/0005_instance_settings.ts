import type { PostgresMigration } from '../migration.ts'

export const instanceSettings: PostgresMigration = {
  id: 5,
  name: 'instance_settings',
  sql: `
    CREATE TABLE instance_settings (
      key text PRIMARY KEY,
      value text NOT NULL
    );
  `,
}
