import type { Migration } from '../migration.ts'

export const labels: Migration = {
  id: 31,
  name: 'labels',
  up(db) {
    db.exec(`
      -- A workspace's labels (server/labels/). name_key is the name in lower case as
      -- JavaScript folds it: one label per name in any case, in any script (NOCASE folds ASCII only).
      -- color is one of the palette's names (server/labels/model.ts), never free CSS.
      CREATE TABLE labels (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        color TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE UNIQUE INDEX labels_by_name ON labels (workspace_id, name_key);

      -- Which labels a conversation and a contact carry; a label's removal takes them along.
      CREATE TABLE conversation_labels (
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        label_id TEXT NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        PRIMARY KEY (conversation_id, label_id)
      ) WITHOUT ROWID;
      CREATE INDEX conversation_labels_by_label ON conversation_labels (label_id, conversation_id);

      CREATE TABLE contact_labels (
        contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        label_id TEXT NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        PRIMARY KEY (contact_id, label_id)
      ) WITHOUT ROWID;
      CREATE INDEX contact_labels_by_label ON contact_labels (label_id, contact_id);
    `)
  },
}
