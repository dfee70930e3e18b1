import type { Migration } from '../migration.ts'

export const flows: Migration = {
  id: 3,
  name: 'flows',
  up(db) {
    // `definition` is the working copy and comes last: reading the other columns of a row
    // then never walks through a document of up to 16 MiB.
    db.exec(`
      CREATE TABLE flows (
        id TEXT PRIMARY KEY,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('conversation', 'meta')),
        status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
        created_at TEXT NOT NULL,
        updated_at TEXT,
        published_at TEXT,
        published_version INTEGER,
        definition TEXT NOT NULL,
        CHECK ((status = 'published') = (published_version IS NOT NULL AND published_at IS NOT NULL))
      );
      CREATE INDEX flows_by_chatbot ON flows (chatbot_id, created_at DESC, id DESC);

      CREATE TABLE flow_versions (
        flow_id TEXT NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version >= 1),
        published_at TEXT NOT NULL,
        definition TEXT NOT NULL,
        PRIMARY KEY (flow_id, version)
      );

      -- A published version is what running conversations follow: it never changes.
      CREATE TRIGGER flow_versions_are_immutable BEFORE UPDATE ON flow_versions
      BEGIN
        SELECT RAISE(ABORT, 'flow versions are immutable');
      END;
    `)
  },
}
