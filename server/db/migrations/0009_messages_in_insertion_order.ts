import type { Migration } from '../migration.ts'

export const messagesInInsertionOrder: Migration = {
  id: 9,
  name: 'messages_in_insertion_order',
  up(db) {
    db.exec(`
      -- A conversation's messages are read in the order they were stored (rowid), which is the
      -- order of their ids: ids are monotonic ULIDs made just before the insert. An index entry
      -- is then a conversation number and a rowid, a few bytes instead of also carrying the
      -- 26-character id, and a chat turn costs about a third less SQLite time
      -- (docs/performance.md).
      DROP INDEX messages_by_conversation;
      CREATE INDEX messages_by_conversation ON messages (conversation_seq);
    `)
  },
}
