import type { Migration } from '../migration.ts'

export const compactMessageKeys: Migration = {
  id: 8,
  name: 'compact_message_keys',
  up(db) {
    db.exec(`
      -- A small integer per conversation keys its messages' indexes. With the 26-character
      -- conversation id leading them, every busy conversation's newest index entries sat on
      -- a page of their own, and a commit wrote one page per conversation per index; with
      -- a few bytes per entry, many conversations share a page (about half the write cost of
      -- a chat turn, see docs/performance.md).
      ALTER TABLE conversations ADD COLUMN seq INTEGER;
      UPDATE conversations SET seq = rowid;
      CREATE UNIQUE INDEX conversations_by_seq ON conversations (seq);

      ALTER TABLE messages ADD COLUMN conversation_seq INTEGER;
      UPDATE messages SET conversation_seq = (SELECT seq FROM conversations c WHERE c.id = messages.conversation_id);
      DROP INDEX messages_by_conversation;
      DROP INDEX messages_by_client_id;
      CREATE INDEX messages_by_conversation ON messages (conversation_seq, id);
      CREATE UNIQUE INDEX messages_by_client_id ON messages (conversation_seq, client_id) WHERE client_id IS NOT NULL;
    `)
  },
}
