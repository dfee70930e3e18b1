import type { PostgresMigration } from '../migration.ts'

export const foundation: PostgresMigration = {
  id: 1,
  name: 'foundation',
  sql: `
    -- SQLite's json_valid(), so that the twins' CHECKs read alike and fail alike (a check
    -- violation, not a cast error). PostgreSQL 15 has no IS JSON yet.
    CREATE FUNCTION json_valid(value text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN
      PERFORM value::jsonb;
      RETURN true;
    EXCEPTION WHEN others THEN
      RETURN false;
    END $$;

    CREATE TABLE workspaces (
      id text PRIMARY KEY,
      name text NOT NULL,
      created_at text NOT NULL
    );

    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL UNIQUE,
      hash text NOT NULL,
      created_at text NOT NULL,
      revoked_at text
    );

    CREATE TABLE chatbots (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      entry_flow_id text,
      created_at text NOT NULL,
      updated_at text
    );
    CREATE INDEX chatbots_by_workspace ON chatbots (workspace_id, created_at DESC, id DESC);
  `,
}
