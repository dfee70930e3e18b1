import type { Migration } from '../migration.ts'

export const people: Migration = {
  id: 12,
  name: 'people',
  up(db) {
    db.exec(`
      -- The people of a workspace who sign in to the desk. password_hash is null until the
      -- person accepts their invite; e-mail addresses are unique per workspace whatever their case.
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        email TEXT NOT NULL,
        display_name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'agent')),
        password_hash TEXT,
        disabled_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE UNIQUE INDEX users_by_email ON users (workspace_id, email COLLATE NOCASE);
      CREATE INDEX users_by_email_anywhere ON users (email COLLATE NOCASE);
      CREATE INDEX users_by_workspace ON users (workspace_id, created_at, id);

      -- Only the SHA-256 of a session's secret is kept: a copy of the database opens no session.
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        user_agent TEXT,
        address TEXT
      );
      CREATE INDEX sessions_by_user ON sessions (user_id);

      -- Links for the first admin, invites and password resets: hashed, single use, short-lived.
      -- A setup link has no user yet: accepting it creates the workspace's first admin.
      CREATE TABLE one_time_tokens (
        hash TEXT PRIMARY KEY,
        purpose TEXT NOT NULL CHECK (purpose IN ('setup', 'invite', 'reset')),
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      );
      CREATE INDEX one_time_tokens_by_user ON one_time_tokens (user_id);
    `)
  },
}
