import type { Migration } from '../migration.ts'

/** What 0017's indexer put in the index for a message (as message-search-store.ts then read it). */
const SEARCH_TEXT =
  "coalesce(json_extract(m.content, '$.text'), json_extract(m.content, '$.title'), nullif(trim(coalesce(json_extract(m.content, '$.media.filename'), '') || ' ' || coalesce(json_extract(m.content, '$.media.caption'), '')), ''))"

export const deskSearchByConversation: Migration = {
  id: 24,
  name: 'desk_search_by_conversation',
  up(db) {
    db.exec(`
      -- The desk's message search is keyed by conversation: an entry's rowid is its
      -- conversation's seq in the high 32 bits and the message's rowid in the low ones, so the
      -- index's own order is the desk lists' (newest conversation first) and a match names its
      -- conversation without a lookup in messages. A search for a word that 100,000
      -- conversations have read every match's message row to find its conversation (126 ms);
      -- now the newest matches are enough for a first page (docs/performance.md). Two messages
      -- of one conversation share a key only if their rowids are 2^32 apart.
      DROP TRIGGER desk_message_search_delete;
      DROP TABLE desk_message_search;
      CREATE VIRTUAL TABLE desk_message_search USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
      INSERT INTO desk_message_search (rowid, text)
        SELECT (m.conversation_seq << 32) | (m.rowid & 4294967295), ${SEARCH_TEXT} FROM messages m
        WHERE m.rowid <= (SELECT last_rowid FROM desk_message_search_cursor WHERE id = 1)
          AND m.role IN ('visitor', 'agent') AND ${SEARCH_TEXT} IS NOT NULL;
      CREATE TRIGGER desk_message_search_delete AFTER DELETE ON messages BEGIN
        DELETE FROM desk_message_search WHERE rowid = (old.conversation_seq << 32) | (old.rowid & 4294967295);
        UPDATE desk_message_search_cursor SET last_rowid = coalesce((SELECT max(rowid) FROM messages), 0)
          WHERE last_rowid >= old.rowid AND last_rowid > coalesce((SELECT max(rowid) FROM messages), 0);
      END;
    `)
  },
}
