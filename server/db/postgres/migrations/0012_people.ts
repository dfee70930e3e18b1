import type { PostgresMigration } from '../migration.ts'

export const people: PostgresMigration = {
  id: 12,
  name: 'people',
  sql: `
    -- SQLite's COLLATE NOCASE indexes become indexes on lower(email): the people store compares
    -- lower(email) = lower($1) here. (NOCASE folds ASCII only, lower() all of Unicode.)
    CREATE TABLE users (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      email text NOT NULL,
      display_name text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'agent')),
      password_hash text,
      disabled_at text,
      created_at text NOT NULL,
      updated_at text
    );
    CREATE UNIQUE INDEX users_by_email ON users (workspace_id, lower(email));
    CREATE INDEX users_by_email_anywhere ON users (lower(email));
    CREATE INDEX users_by_workspace ON users (workspace_id, created_at, id);

    CREATE TABLE sessions (
      id text PRIMARY KEY,
      hash text NOT NULL UNIQUE,
      user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      created_at text NOT NULL,
      last_seen_at text NOT NULL,
      expires_at text NOT NULL,
      user_agent text,
      address text
    );
    CREATE INDEX sessions_by_user ON sessions (user_id);

    CREATE TABLE one_time_tokens (
      hash text PRIMARY KEY,
      purpose text NOT NULL CHECK (purpose IN ('setup', 'invite', 'reset')),
      workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      user_id text REFERENCES users(id) ON DELETE CASCADE,
      created_at text NOT NULL,
      expires_at text NOT NULL,
      used_at text
    );
    CREATE INDEX one_time_tokens_by_user ON one_time_tokens (user_id);
  `,
}
