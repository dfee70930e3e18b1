import type { Migration } from '../migration.ts'

export const widgetFeedback: Migration = {
  id: 16,
  name: 'widget_feedback',
  up(db) {
    db.exec(`
      -- The visitor's rating of a closed conversation: one per conversation, never changed.
      -- scale 'thumbs' stores 0 (down) or 1 (up); 'stars' stores 1 to 5.
      CREATE TABLE conversation_ratings (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
        scale TEXT NOT NULL CHECK (scale IN ('thumbs', 'stars')),
        score INTEGER NOT NULL CHECK ((scale = 'thumbs' AND score IN (0, 1)) OR (scale = 'stars' AND score BETWEEN 1 AND 5)),
        comment TEXT,
        created_at TEXT NOT NULL
      );

      -- How far each side has read a conversation: the visitor (the answers they have seen) and
      -- the team (the bot or an agent, the visitor's messages read). up_to is a message id of
      -- the conversation; it only moves forward.
      CREATE TABLE conversation_reads (
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        reader TEXT NOT NULL CHECK (reader IN ('visitor', 'team')),
        up_to TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (conversation_id, reader)
      ) WITHOUT ROWID;

      -- An agent's picture on their messages: an https image address (widget_config's
      -- bot_avatar_url rules), null for everyone else.
      ALTER TABLE messages ADD COLUMN author_avatar_url TEXT;
    `)
  },
}
