import type { PostgresMigration } from '../migration.ts'

export const mcpIntegrations: PostgresMigration = {
  id: 11,
  name: 'mcp_integrations',
  sql: `
    CREATE UNIQUE INDEX integrations_mcp_name ON integrations (chatbot_id, lower(name)) WHERE type = 'mcp';
    CREATE TABLE mcp_tool_catalogues (
      integration_id text PRIMARY KEY REFERENCES integrations(id) ON DELETE CASCADE,
      tools text NOT NULL CHECK (json_valid(tools)),
      listed_at text NOT NULL
    );
  `,
}
