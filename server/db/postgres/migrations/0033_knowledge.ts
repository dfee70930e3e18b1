import type { PostgresMigration } from '../migration.ts'

/**
 * The twin of SQLite's 0033: FTS5 becomes a table of tsvectors keyed by the passage's rowid
 * (removed with it by a foreign key, where SQLite needs a trigger), ranked by ts_rank
 * over a GIN index. The vectors are made by the store (english stems, diacritics folded first).
 */
export const knowledge: PostgresMigration = {
  id: 33,
  name: 'knowledge',
  sql: `
    CREATE TABLE knowledge_sources (
      id text PRIMARY KEY,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      type text NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      size_bytes integer NOT NULL,
      status text NOT NULL,
      failure text,
      passages integer NOT NULL DEFAULT 0,
      attempts integer NOT NULL DEFAULT 0,
      claim text,
      lease_until text,
      created_at text NOT NULL,
      updated_at text NOT NULL,
      indexed_at text
    );
    CREATE INDEX knowledge_sources_by_chatbot ON knowledge_sources (chatbot_id, created_at COLLATE "C", size_bytes, passages);
    CREATE INDEX knowledge_sources_to_index ON knowledge_sources (status, updated_at COLLATE "C") WHERE status IN ('queued', 'indexing');

    -- A chatbot's key: its passages' rowids are (key << 32) | n, as on SQLite, so a search
    -- reads the chatbot's range of the index (a range of the primary key) before ranking.
    CREATE TABLE knowledge_bases (
      key bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chatbot_id text NOT NULL UNIQUE REFERENCES chatbots(id) ON DELETE CASCADE
    );

    CREATE TABLE knowledge_passages (
      rowid bigint PRIMARY KEY,
      source_id text NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
      ordinal integer NOT NULL,
      chatbot_id text NOT NULL,
      heading text NOT NULL,
      anchor text NOT NULL,
      text text NOT NULL,
      UNIQUE (source_id, ordinal)
    );

    -- title weighted A, text B: a word in a heading counts more, as FTS5's bm25 weights say.
    CREATE TABLE knowledge_passage_search (
      rowid bigint PRIMARY KEY REFERENCES knowledge_passages(rowid) ON DELETE CASCADE,
      title tsvector NOT NULL,
      text tsvector NOT NULL
    );
    CREATE INDEX knowledge_passage_search_words ON knowledge_passage_search USING gin ((title || text));
  `,
}
