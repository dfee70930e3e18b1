import type { PostgresMigration } from '../migration.ts'

export const integrations: PostgresMigration = {
  id: 2,
  name: 'integrations',
  sql: `
    CREATE TABLE integrations (
      id text PRIMARY KEY,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('chatapp', 'rest-api', 'web', 'mcp')),
      name text NOT NULL,
      is_active integer NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      config text NOT NULL DEFAULT '{}' CHECK (json_valid(config)),
      secrets text NOT NULL DEFAULT '{}' CHECK (json_valid(secrets)),
      public_key text UNIQUE,
      created_at text NOT NULL,
      updated_at text
    );
    CREATE UNIQUE INDEX integrations_one_per_type ON integrations (chatbot_id, type) WHERE type <> 'mcp';
    CREATE INDEX integrations_by_chatbot ON integrations (chatbot_id, created_at DESC, id DESC);
  `,
}
