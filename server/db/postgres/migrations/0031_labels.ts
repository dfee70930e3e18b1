import type { PostgresMigration } from '../migration.ts'

/** A workspace's labels and who carries them (SQLite's 0031_labels.ts says why each column is there). */
export const labels: PostgresMigration = {
  id: 31,
  name: 'labels',
  sql: `
    CREATE TABLE labels (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      name_key text NOT NULL,
      color text NOT NULL,
      created_at text NOT NULL,
      updated_at text
    );
    CREATE UNIQUE INDEX labels_by_name ON labels (workspace_id, name_key);

    CREATE TABLE conversation_labels (
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      label_id text NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
      created_at text NOT NULL,
      PRIMARY KEY (conversation_id, label_id)
    );
    CREATE INDEX conversation_labels_by_label ON conversation_labels (label_id, conversation_id);

    CREATE TABLE contact_labels (
      contact_id text NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      label_id text NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
      created_at text NOT NULL,
      PRIMARY KEY (contact_id, label_id)
    );
    CREATE INDEX contact_labels_by_label ON contact_labels (label_id, contact_id);
  `,
}
