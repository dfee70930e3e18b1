import type { Migration } from '../migration.ts'

export const conversations: Migration = {
  id: 4,
  name: 'conversations',
  up(db) {
    db.exec(`
      -- One person talking to one chatbot, whatever the channel: an identified visitor and
      -- a messaging-app user with the same phone number are the same contact.
      CREATE TABLE contacts (
        id TEXT PRIMARY KEY,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        external_id TEXT,
        visitor_token_hash TEXT,
        details TEXT NOT NULL DEFAULT '{}',
        first_message_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE UNIQUE INDEX contacts_by_external_id ON contacts (chatbot_id, external_id) WHERE external_id IS NOT NULL;
      CREATE UNIQUE INDEX contacts_by_visitor_token ON contacts (chatbot_id, visitor_token_hash) WHERE visitor_token_hash IS NOT NULL;

      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        -- No foreign keys on purpose: history outlives the integration and the flow it ran.
        integration_id TEXT,
        flow_id TEXT,
        flow_version INTEGER,
        state TEXT,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT,
        last_message_at TEXT NOT NULL
      );
      CREATE INDEX conversations_by_chatbot ON conversations (chatbot_id, last_message_at DESC, id DESC);
      CREATE INDEX conversations_by_contact ON conversations (contact_id, created_at DESC, id DESC);

      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        client_id TEXT,
        author TEXT,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX messages_by_conversation ON messages (conversation_id, id);
      CREATE UNIQUE INDEX messages_by_client_id ON messages (conversation_id, client_id) WHERE client_id IS NOT NULL;
    `)
  },
}
