import type { Migration } from '../migration.ts'

/**
 * An mcp integration's name namespaces its tools for an agent, so two servers of one chatbot
 * must not share it, whatever its case. The index is the guarantee when two requests race
 * past the service's check.
 */
export const mcpNames: Migration = {
  id: 11,
  name: 'mcp_names',
  up(db) {
    db.exec(`
      CREATE UNIQUE INDEX integrations_mcp_name ON integrations (chatbot_id, lower(name)) WHERE type = 'mcp';
    `)
  },
}
