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
      CREATE INDEX knowledge_sources_by_chatbot ON knowledge_sources (chatbot_id, created_at);
      CREATE INDEX knowledge_sources_to_index ON knowledge_sources (status, updated_at) WHERE status IN ('queued', 'indexing');

      -- A source's passages, in order: heading is the path of headings above it, anchor the
      -- nearest one's slug. Searched through knowledge_passage_search, keyed by the rowid.
      CREATE TABLE knowledge_passages (
        source_id TEXT NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        chatbot_id TEXT NOT NULL,
        heading TEXT NOT NULL,
        anchor TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (source_id, ordinal)
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
