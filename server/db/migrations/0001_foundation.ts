import type { Migration } from '../migration.ts'

export const foundation: Migration = {
  id: 1,
  name: 'foundation',
  up(db) {
    db.exec(`
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );

      CREATE TABLE chatbots (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        entry_flow_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE INDEX chatbots_by_workspace ON chatbots (workspace_id, created_at DESC, id DESC);
    `)
  },
}
