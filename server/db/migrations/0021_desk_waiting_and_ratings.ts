import type { Migration } from '../migration.ts'

/** A rating as the desk groups it: thumbs up and 4-5 stars are good, thumbs down and 1-2 stars bad, 3 stars neutral. */
export const RATING_CLASS = (row: string) => `CASE
  WHEN (${row}.scale = 'thumbs' AND ${row}.score = 1) OR (${row}.scale = 'stars' AND ${row}.score >= 4) THEN 'good'
  WHEN (${row}.scale = 'thumbs' AND ${row}.score = 0) OR (${row}.scale = 'stars' AND ${row}.score <= 2) THEN 'bad'
  ELSE 'neutral' END`

export const deskWaitingAndRatings: Migration = {
  id: 21,
  name: 'desk_waiting_and_ratings',
  up(db) {
    db.exec(`
      -- Waiting means a visitor waits for a person: from the handoff, or from the visitor's
      -- first message after a person's last reply, until a person (or the API, as an agent)
      -- replies. NULL when nobody waits. Status changes set it by the trigger below; the
      -- messages of a handed-off conversation by the desk's share of each turn
      -- (server/desk/turn-wait.ts), which costs a turn with the bot nothing (a trigger
      -- on messages made every turn 13 % slower).
      ALTER TABLE desk_threads ADD COLUMN waiting_since TEXT;
      UPDATE desk_threads SET waiting_since = CASE
        WHEN coalesce((SELECT max(a.created_at) FROM messages a WHERE a.conversation_seq = desk_threads.seq AND a.role = 'agent'), '') < coalesce(handoff_at, '') THEN handoff_at
        ELSE (SELECT min(v.created_at) FROM messages v WHERE v.conversation_seq = desk_threads.seq AND v.role = 'visitor'
              AND v.rowid > (SELECT max(a.rowid) FROM messages a WHERE a.conversation_seq = desk_threads.seq AND a.role = 'agent'))
        END
        WHERE status = 'handoff';
      DROP INDEX desk_threads_waiting;
      CREATE INDEX desk_threads_waiting_since ON desk_threads (workspace_id, waiting_since, seq) WHERE waiting_since IS NOT NULL;

      -- A handoff starts the wait (the turn that handed off holds the visitor's message);
      -- leaving handoff ends it. A person taking over from the desk clears it in the same
      -- transaction (desk/store.ts): they did not keep anyone waiting.
      CREATE TRIGGER desk_threads_wait_on_status AFTER UPDATE OF status ON conversations WHEN new.status IS NOT old.status BEGIN
        UPDATE desk_threads SET waiting_since = CASE WHEN new.status = 'handoff' THEN coalesce(new.updated_at, new.last_message_at) END
          WHERE seq = new.seq;
      END;

      -- The visitor's rating, for the desk's lists (a filter) and its timeline (an event).
      ALTER TABLE desk_threads ADD COLUMN rating TEXT CHECK (rating IN ('good', 'neutral', 'bad'));
      UPDATE desk_threads SET rating = (SELECT ${RATING_CLASS('r')} FROM conversation_ratings r WHERE r.conversation_id = desk_threads.conversation_id);
      CREATE INDEX desk_threads_rated ON desk_threads (workspace_id, seq) WHERE rating IS NOT NULL;
      INSERT INTO desk_events (conversation_id, kind, at, data)
        SELECT r.conversation_id, 'rated', r.created_at, json_object('scale', r.scale, 'score', r.score, 'comment', r.comment)
        FROM conversation_ratings r ORDER BY r.created_at;
      CREATE TRIGGER desk_threads_rated AFTER INSERT ON conversation_ratings BEGIN
        UPDATE desk_threads SET rating = ${RATING_CLASS('new')} WHERE conversation_id = new.conversation_id;
        INSERT INTO desk_events (conversation_id, kind, at, data)
          VALUES (new.conversation_id, 'rated', new.created_at, json_object('scale', new.scale, 'score', new.score, 'comment', new.comment));
      END;
    `)
  },
}
