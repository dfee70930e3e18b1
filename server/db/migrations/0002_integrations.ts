import type { Migration } from '../migration.ts'

/**
 * One table for every integration type. `config` holds the settings shown to clients,
 * `secrets` what is written once and only shown masked (kept usable: Parley signs and calls
 * with them). `public_key` is the web widget key, unique so that a socket finds its
 * integration by it. The partial index allows one chatapp, rest-api and web per chatbot and
 * any number of mcp integrations.
 */
export const integrations: Migration = {
  id: 2,
  name: 'integrations',
  up(db) {
    db.exec(`
      CREATE TABLE integrations (
        id TEXT PRIMARY KEY,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        type TEXT NOT NULL CHECK (type IN ('chatapp', 'rest-api', 'web', 'mcp')),
        name TEXT NOT NULL,
        is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
        config TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config)),
        secrets TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(secrets)),
        public_key TEXT UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE UNIQUE INDEX integrations_one_per_type ON integrations (chatbot_id, type) WHERE type != 'mcp';
      CREATE INDEX integrations_by_chatbot ON integrations (chatbot_id, created_at DESC, id DESC);
    `)
  },
}
