import type { Migration } from '../migration.ts'

export const agentRunsFinishedByChatbot: Migration = {
  id: 20,
  name: 'agent_runs_finished_by_chatbot',
  up(db) {
    db.exec(`
      -- A chatbot's overview sums tokens per day over its runs finished in the last 30 days:
      -- this index reaches them by (chatbot, finished_at) instead of reading every run the
      -- chatbot ever had. Not partial on finished runs: the planner would then scan such an
      -- index, row by row, for a conversation's totals (conversation_id = ? AND status !=
      -- 'pending'), which read the table once in order without it. agent_runs_by_chatbot stays
      -- for the totals grouped by conversation, which it walks in order.
      CREATE INDEX agent_runs_finished_by_chatbot ON agent_runs (chatbot_id, finished_at);
    `)
  },
}
