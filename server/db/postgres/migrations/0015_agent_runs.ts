import type { PostgresMigration } from '../migration.ts'

export const agentRuns: PostgresMigration = {
  id: 15,
  name: 'agent_runs',
  sql: `
    CREATE TABLE agent_runs (
      id text PRIMARY KEY,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      chatbot_id text NOT NULL,
      state text NOT NULL,
      status text NOT NULL,
      outcome text,
      model_calls integer NOT NULL DEFAULT 0,
      prompt_tokens integer NOT NULL DEFAULT 0,
      completion_tokens integer NOT NULL DEFAULT 0,
      total_tokens integer NOT NULL DEFAULT 0,
      created_at text NOT NULL,
      finished_at text
    );
    CREATE INDEX agent_runs_pending ON agent_runs (conversation_id, id) WHERE status = 'pending';
    CREATE INDEX agent_runs_by_chatbot ON agent_runs (chatbot_id, conversation_id);

    CREATE TABLE agent_trace (
      id text PRIMARY KEY,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      run_id text NOT NULL,
      kind text NOT NULL,
      detail text NOT NULL,
      created_at text NOT NULL
    );
    CREATE INDEX agent_trace_by_conversation ON agent_trace (conversation_id, id);
  `,
}
