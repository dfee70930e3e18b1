import type { Migration } from '../migration.ts'

export const agentRuns: Migration = {
  id: 15,
  name: 'agent_runs',
  up(db) {
    db.exec(`
      -- One run of an LLM agent state (server/autopilot/): recorded 'pending' in the same unit as
      -- the visitor's message it answers, so a restart or a crash runs it again; it ends 'done'
      -- (answer, exit, failure: outcome), 'merged' (answered together with a later run of the same
      -- conversation) or 'dropped' (a person took over, the flow moved on) in the same unit as
      -- what it stored, so its answer is stored once. Token counts stay for usage.
      CREATE TABLE agent_runs (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        chatbot_id TEXT NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL,
        outcome TEXT,
        model_calls INTEGER NOT NULL DEFAULT 0,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        total_tokens INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX agent_runs_pending ON agent_runs (conversation_id, id) WHERE status = 'pending';
      CREATE INDEX agent_runs_by_chatbot ON agent_runs (chatbot_id, conversation_id);

      -- What a run did, for the team (never for the visitor, a webhook or the messaging app):
      -- each model call, tool call and exit, and the run's end, as JSON.
      CREATE TABLE agent_trace (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX agent_trace_by_conversation ON agent_trace (conversation_id, id);
    `)
  },
}
