import type { Migration } from '../migration.ts'

/**
 * MCP integrations. Their tool catalogues (the last listing of a server's tools) are kept
 * so that reading them needs no connection, and they go with their integration.
 *
 * An mcp integration's name namespaces its tools for an agent, so two servers of one chatbot
 * must not share it, whatever its case. The index is the guarantee when two requests race
 * past the service's check.
 */
export const mcpIntegrations: Migration = {
  id: 11,
  name: 'mcp_integrations',
  up(db) {
    db.exec(`
      CREATE UNIQUE INDEX integrations_mcp_name ON integrations (chatbot_id, lower(name)) WHERE type = 'mcp';
      CREATE TABLE mcp_tool_catalogues (
        integration_id TEXT PRIMARY KEY REFERENCES integrations(id) ON DELETE CASCADE,
        tools TEXT NOT NULL CHECK (json_valid(tools)),
        listed_at TEXT NOT NULL
      );
    `)
  },
}
