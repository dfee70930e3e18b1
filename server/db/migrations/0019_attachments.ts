import type { Migration } from '../migration.ts'

export const attachments: Migration = {
  id: 19,
  name: 'attachments',
  up(db) {
    db.exec(`
      -- Files sent in a conversation (a visitor's picture or PDF, an agent's file), kept inside
      -- the database so that a backup of the one file holds everything. The bytes column is
      -- last: reading the other columns never loads a file's overflow pages.
      -- key_hash is the sha256 (hex) of the random key in the file's address; the key itself
      -- is never stored. The workspace and chatbot are copied from the conversation for the
      -- tenant checks; the conversation's removal (its chatbot's, its contact's) takes the
      -- files with it.
      CREATE TABLE attachments (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        chatbot_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        key_hash TEXT NOT NULL,
        content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf')),
        byte_size INTEGER NOT NULL CHECK (byte_size > 0),
        filename TEXT NOT NULL CHECK (length(filename) BETWEEN 1 AND 200),
        sha256 TEXT NOT NULL,
        uploaded_by TEXT NOT NULL CHECK (uploaded_by IN ('visitor', 'agent', 'bot')),
        created_at TEXT NOT NULL,
        bytes BLOB NOT NULL
      );
      CREATE INDEX attachments_by_conversation ON attachments (conversation_id);
    `)
  },
}
