import type { PostgresMigration } from '../migration.ts'

export const attachments: PostgresMigration = {
  id: 19,
  name: 'attachments',
  sql: `
    -- bytes is bytea, kept out of line by TOAST: reading the other columns never loads a file.
    CREATE TABLE attachments (
      id text PRIMARY KEY,
      workspace_id text NOT NULL,
      chatbot_id text NOT NULL,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      key_hash text NOT NULL,
      content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf')),
      byte_size integer NOT NULL CHECK (byte_size > 0),
      filename text NOT NULL CHECK (length(filename) BETWEEN 1 AND 200),
      sha256 text NOT NULL,
      uploaded_by text NOT NULL CHECK (uploaded_by IN ('visitor', 'agent', 'bot')),
      created_at text NOT NULL,
      bytes bytea NOT NULL
    );
    CREATE INDEX attachments_by_conversation ON attachments (conversation_id);
  `,
}
