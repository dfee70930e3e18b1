import type { PostgresMigration } from '../migration.ts'

export const mcpOauth: PostgresMigration = {
  id: 14,
  name: 'mcp_oauth',
  sql: `
    CREATE TABLE mcp_oauth_grants (
      integration_id text PRIMARY KEY REFERENCES integrations(id) ON DELETE CASCADE,
      binding text NOT NULL,
      discovery text CHECK (discovery IS NULL OR json_valid(discovery)),
      client text CHECK (client IS NULL OR json_valid(client)),
      tokens text CHECK (tokens IS NULL OR json_valid(tokens)),
      needs_authorization integer NOT NULL DEFAULT 0,
      wanted_scope text,
      updated_at text NOT NULL
    );
    -- expires_at is milliseconds since 1970, past int4: bigint (read back as a string by Bun.sql).
    CREATE TABLE mcp_oauth_states (
      state_hash text PRIMARY KEY,
      integration_id text NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
      binding text NOT NULL,
      code_verifier text NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE INDEX mcp_oauth_states_integration ON mcp_oauth_states (integration_id);
  `,
}
