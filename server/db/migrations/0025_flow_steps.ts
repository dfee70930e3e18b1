import type { Migration } from '../migration.ts'

export const flowSteps: Migration = {
  id: 25,
  name: 'flow_steps',
  up(db) {
    db.exec(`
      -- What conversations did in their flow, for the builder's counts per state and edge
      -- (server/flow-insights/): one row per state entered, by the way taken (start, next,
      -- on/2, branch/1, handoff/resume, agent/exits/0, agent/on_limit, agent/on_error), and
      -- one per handoff and agent failure (to_state NULL), written with the turn that made it.
      -- Messages and the conversation's current state do not say which way a turn went.
      CREATE TABLE flow_steps (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        flow_id TEXT NOT NULL,
        flow_version INTEGER NOT NULL,
        from_state TEXT,
        way TEXT NOT NULL,
        to_state TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX flow_steps_by_version ON flow_steps (flow_id, flow_version, at);
      CREATE INDEX flow_steps_by_conversation ON flow_steps (conversation_id);
    `)
  },
}
