import type { PostgresMigration } from '../migration.ts'

export const messagesInInsertionOrder: PostgresMigration = {
  id: 9,
  name: 'messages_in_insertion_order',
  sql: `
    -- SQLite's index on conversation_seq alone carries the rowid; here the explicit rowid is its
    -- second column, so a conversation's messages come in stored order from the index.
    DROP INDEX messages_by_conversation;
    CREATE INDEX messages_by_conversation ON messages (conversation_seq, rowid);
  `,
}
