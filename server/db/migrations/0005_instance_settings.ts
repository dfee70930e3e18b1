import type { Migration } from '../migration.ts'

export const instanceSettings: Migration = {
  id: 5,
  name: 'instance_settings',
  up(db) {
    db.exec(`
      -- Facts about this installation (such as which chatbot is the demo), not about a workspace.
      CREATE TABLE instance_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `)
  },
}
