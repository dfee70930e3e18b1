import type { PostgresMigration } from '../migration.ts'

export const deskSearchByConversation: PostgresMigration = {
  id: 24,
  name: 'desk_search_by_conversation',
  sql: `
    -- SQLite's 0024 keys each FTS5 entry by its conversation's seq (high 32 bits) and the
    -- message's rowid, so a match names its conversation without reading the message. Here the
    -- entry keeps its message's rowid (the foreign key still removes it with the message) and
    -- holds the conversation's seq in a column of its own, filled from messages for what the
    -- indexer already wrote; the desk's search reads the newest conversations from it.
    ALTER TABLE desk_message_search ADD COLUMN conversation_seq bigint;
    UPDATE desk_message_search s SET conversation_seq = m.conversation_seq FROM messages m WHERE m.rowid = s.rowid;
    ALTER TABLE desk_message_search ALTER COLUMN conversation_seq SET NOT NULL;
  `,
}
