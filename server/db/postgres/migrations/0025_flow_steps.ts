import type { PostgresMigration } from '../migration.ts'

export const flowSteps: PostgresMigration = {
  id: 25,
  name: 'flow_steps',
  sql: `
    -- As SQLite's 0025: what conversations did in their flow, for the builder's insights.
    CREATE TABLE flow_steps (
      id text PRIMARY KEY,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      flow_id text NOT NULL,
      flow_version integer NOT NULL,
      from_state text,
      way text NOT NULL,
      to_state text,
      at text NOT NULL
    );
    CREATE INDEX flow_steps_by_version ON flow_steps (flow_id, flow_version, at);
    CREATE INDEX flow_steps_by_conversation ON flow_steps (conversation_id);
  `,
}
