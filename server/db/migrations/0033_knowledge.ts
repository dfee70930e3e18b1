import type { Migration } from '../migration.ts'

export const knowledge: Migration = {
  id: 33,
  name: 'knowledge',
  up(db) {
    db.exec(`
      -- A chatbot's knowledge sources (docs/knowledge.md). content: a text source's text, a
      -- question-answer pair's answer (its question is the title), kept so that a refresh can
      -- index it again and one backup holds everything. status: queued, indexing, ready or
      -- failed (failure says why). An indexer holds a source while claim and lease_until say so;
      -- attempts counts its claims, so a source that stops the indexer every time ends failed.
      CREATE TABLE knowledge_sources (
        id TEXT PRIMARY KEY,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        status TEXT NOT NULL,
        failure TEXT,
        passages INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        claim TEXT,
        lease_until TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        indexed_at TEXT
      );
      -- Covers the sums of size_bytes and passages a create and a search read: the row itself
      -- would be read through its content's overflow pages.
      CREATE INDEX knowledge_sources_by_chatbot ON knowledge_sources (chatbot_id, created_at, size_bytes, passages);
      CREATE INDEX knowledge_sources_to_index ON knowledge_sources (status, updated_at) WHERE status IN ('queued', 'indexing');

      -- A chatbot's number in the search index, given when its first passages are written.
      -- Its passages' rowids are its key in the high 32 bits and a count in the low ones, so a
      -- search reads the chatbot's range of the FTS5 index only (as the desk's message search
      -- does by conversation) instead of scoring every chatbot's matches and then filtering.
      CREATE TABLE knowledge_bases (
        key INTEGER PRIMARY KEY,
        chatbot_id TEXT NOT NULL UNIQUE REFERENCES chatbots(id) ON DELETE CASCADE
      );

      -- A source's passages, in order: heading is the path of headings above it, anchor the
      -- nearest one's slug. rowid: (its chatbot's key << 32) | n, declared so that no VACUUM
      -- renumbers it. Searched through knowledge_passage_search, keyed by the rowid.
      CREATE TABLE knowledge_passages (
        rowid INTEGER PRIMARY KEY,
        source_id TEXT NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        chatbot_id TEXT NOT NULL,
        heading TEXT NOT NULL,
        anchor TEXT NOT NULL,
        text TEXT NOT NULL,
        UNIQUE (source_id, ordinal)
      );

      -- Full text, BM25-ranked: the passage's title (its source's title and headings) and text,
      -- English stems with diacritics removed. Contentless: the words live in knowledge_passages.
      CREATE VIRTUAL TABLE knowledge_passage_search USING fts5(title, text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
      CREATE TRIGGER knowledge_passage_search_delete AFTER DELETE ON knowledge_passages BEGIN
        DELETE FROM knowledge_passage_search WHERE rowid = old.rowid;
      END;
    `)
  },
}
