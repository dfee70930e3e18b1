import type { Migration } from '../migration.ts'

export const lighterTurnRows: Migration = {
  id: 29,
  name: 'lighter_turn_rows',
  up(db) {
    db.exec(`
      -- A chat turn writes fewer and smaller B-tree entries (issue 34, docs/performance.md).
      -- flow_steps: a step names its conversation by number (conversations.seq, as messages
      -- do) instead of by its 26-character id, and has no id of its own (nothing reads one):
      -- the table's rowid, the flow's index and a small integer index per conversation,
      -- instead of a text primary key and a text index.
      CREATE TABLE flow_steps_by_seq (
        conversation_seq INTEGER NOT NULL REFERENCES conversations(seq) ON DELETE CASCADE,
        flow_id TEXT NOT NULL,
        flow_version INTEGER NOT NULL,
        from_state TEXT,
        way TEXT NOT NULL,
        to_state TEXT,
        at TEXT NOT NULL
      );
      INSERT INTO flow_steps_by_seq (conversation_seq, flow_id, flow_version, from_state, way, to_state, at)
        SELECT c.seq, s.flow_id, s.flow_version, s.from_state, s.way, s.to_state, s.at
        FROM flow_steps s JOIN conversations c ON c.id = s.conversation_id ORDER BY s.rowid;
      DROP TABLE flow_steps;
      ALTER TABLE flow_steps_by_seq RENAME TO flow_steps;
      CREATE INDEX flow_steps_by_version ON flow_steps (flow_id, flow_version, at);
      CREATE INDEX flow_steps_by_conversation ON flow_steps (conversation_seq);

      -- The team's read mark (moved by every bot answer) lives on the conversation's row, which
      -- the turn rewrites anyway, instead of a row of its own in conversation_reads (one more
      -- B-tree page per turn). conversation_reads keeps the visitor's marks.
      ALTER TABLE conversations ADD COLUMN team_read_up_to TEXT;
      ALTER TABLE conversations ADD COLUMN team_read_at TEXT;
      UPDATE conversations SET (team_read_up_to, team_read_at) =
          (SELECT r.up_to, r.at FROM conversation_reads r WHERE r.conversation_id = conversations.id AND r.reader = 'team')
        WHERE id IN (SELECT conversation_id FROM conversation_reads WHERE reader = 'team');
      DELETE FROM conversation_reads WHERE reader = 'team';
    `)
  },
}
