import type { PostgresMigration } from '../migration.ts'

export const widgetFeedback: PostgresMigration = {
  id: 16,
  name: 'widget_feedback',
  sql: `
    CREATE TABLE conversation_ratings (
      conversation_id text PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
      scale text NOT NULL CHECK (scale IN ('thumbs', 'stars')),
      score integer NOT NULL CHECK ((scale = 'thumbs' AND score IN (0, 1)) OR (scale = 'stars' AND score BETWEEN 1 AND 5)),
      comment text,
      created_at text NOT NULL
    );

    CREATE TABLE conversation_reads (
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      reader text NOT NULL CHECK (reader IN ('visitor', 'team')),
      up_to text NOT NULL,
      at text NOT NULL,
      PRIMARY KEY (conversation_id, reader)
    );

    ALTER TABLE messages ADD COLUMN author_avatar_url text;
  `,
}
