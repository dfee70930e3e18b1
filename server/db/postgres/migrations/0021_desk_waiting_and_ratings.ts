import { RATING_CLASS } from '../../migrations/0021_desk_waiting_and_ratings.ts'
import type { PostgresMigration } from '../migration.ts'

export const deskWaitingAndRatings: PostgresMigration = {
  id: 21,
  name: 'desk_waiting_and_ratings',
  sql: `
    -- As SQLite's 0021, with its RATING_CLASS: who waits for a person since when (a status
    -- change by the trigger, a handed-off conversation's messages by the desk's share of each
    -- turn), and the visitor's rating on the desk's threads and timeline.
    ALTER TABLE desk_threads ADD COLUMN waiting_since text;
    UPDATE desk_threads SET waiting_since = CASE
      WHEN coalesce((SELECT max(a.created_at) FROM messages a WHERE a.conversation_seq = desk_threads.seq AND a.role = 'agent'), '') < coalesce(handoff_at, '') THEN handoff_at
      ELSE (SELECT min(v.created_at) FROM messages v WHERE v.conversation_seq = desk_threads.seq AND v.role = 'visitor'
            AND v.rowid > (SELECT max(a.rowid) FROM messages a WHERE a.conversation_seq = desk_threads.seq AND a.role = 'agent'))
      END
      WHERE status = 'handoff';
    DROP INDEX desk_threads_waiting;
    CREATE INDEX desk_threads_waiting_since ON desk_threads (workspace_id, waiting_since, seq) WHERE waiting_since IS NOT NULL;

    CREATE FUNCTION desk_threads_wait_on_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE desk_threads SET waiting_since = CASE WHEN new.status = 'handoff' THEN coalesce(new.updated_at, new.last_message_at) END
        WHERE seq = new.seq;
      RETURN NULL;
    END $$;
    CREATE TRIGGER desk_threads_wait_on_status AFTER UPDATE OF status ON conversations
      FOR EACH ROW WHEN (new.status IS DISTINCT FROM old.status) EXECUTE FUNCTION desk_threads_wait_on_status();

    ALTER TABLE desk_threads ADD COLUMN rating text CHECK (rating IN ('good', 'neutral', 'bad'));
    UPDATE desk_threads SET rating = (SELECT ${RATING_CLASS('r')} FROM conversation_ratings r WHERE r.conversation_id = desk_threads.conversation_id);
    CREATE INDEX desk_threads_rated ON desk_threads (workspace_id, seq) WHERE rating IS NOT NULL;
    INSERT INTO desk_events (conversation_id, kind, at, data)
      SELECT r.conversation_id, 'rated', r.created_at, json_build_object('scale', r.scale, 'score', r.score, 'comment', r.comment)::text
      FROM conversation_ratings r ORDER BY r.created_at;
    CREATE FUNCTION desk_threads_rated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE desk_threads SET rating = ${RATING_CLASS('new')} WHERE conversation_id = new.conversation_id;
      INSERT INTO desk_events (conversation_id, kind, at, data)
        VALUES (new.conversation_id, 'rated', new.created_at, json_build_object('scale', new.scale, 'score', new.score, 'comment', new.comment)::text);
      RETURN NULL;
    END $$;
    CREATE TRIGGER desk_threads_rated AFTER INSERT ON conversation_ratings
      FOR EACH ROW EXECUTE FUNCTION desk_threads_rated();
  `,
}
