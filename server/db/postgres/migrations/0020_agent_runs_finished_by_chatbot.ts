import type { PostgresMigration } from '../migration.ts'

export const agentRunsFinishedByChatbot: PostgresMigration = {
  id: 20,
  name: 'agent_runs_finished_by_chatbot',
  sql: `
    CREATE INDEX agent_runs_finished_by_chatbot ON agent_runs (chatbot_id, finished_at);
  `,
}
