import type { PostgresMigration } from '../migration.ts'

export const lighterTurnRows: PostgresMigration = {
  id: 29,
  name: 'lighter_turn_rows',
  sql: `
    -- As SQLite's 0029: a flow step names its conversation by number and has no id of its
    -- own; the team's read mark lives on the conversation's row.
    ALTER TABLE flow_steps ADD COLUMN conversation_seq bigint REFERENCES conversations(seq) ON DELETE CASCADE;
    UPDATE flow_steps SET conversation_seq = (SELECT c.seq FROM conversations c WHERE c.id = flow_steps.conversation_id);
    ALTER TABLE flow_steps ALTER COLUMN conversation_seq SET NOT NULL;
    ALTER TABLE flow_steps DROP COLUMN id;
    -- Its index (flow_steps_by_conversation) goes with it.
    ALTER TABLE flow_steps DROP COLUMN conversation_id;
    CREATE INDEX flow_steps_by_conversation ON flow_steps (conversation_seq);

    ALTER TABLE conversations ADD COLUMN team_read_up_to text;
    ALTER TABLE conversations ADD COLUMN team_read_at text;
    UPDATE conversations c SET team_read_up_to = r.up_to, team_read_at = r.at
      FROM conversation_reads r WHERE r.conversation_id = c.id AND r.reader = 'team';
    DELETE FROM conversation_reads WHERE reader = 'team';
  `,
}
