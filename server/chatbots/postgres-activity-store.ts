import type { SQL } from 'bun'
import type { ActivityStore, LatestFailure, TokensOfDay } from './activity-store.ts'

/** Counts are cast to int and token sums to float8 (exact up to 2^53): Bun.sql reads int8 as a string. */
export function postgresActivityStore(sql: SQL): ActivityStore {
  const all = async <Row>(rows: Promise<Row[]>) => [...(await rows)]
  const count = async (rows: Promise<{ n: number }[]>) => (await rows)[0]?.n ?? 0
  return {
    async chatbotExists(workspaceId, chatbotId) {
      return (await sql`SELECT id FROM chatbots WHERE id = ${chatbotId} AND workspace_id = ${workspaceId}`).length > 0
    },
    conversationsPerDay: (chatbotId, since) =>
      all(sql<{ day: string; n: number }[]>`SELECT substr(created_at, 1, 10) AS day, count(*)::int AS n FROM conversations
        WHERE chatbot_id = ${chatbotId} AND created_at >= ${since} GROUP BY day`),
    agentTokensPerDay: (chatbotId, since) =>
      all(sql<TokensOfDay[]>`SELECT substr(finished_at, 1, 10) AS day, count(*)::int AS runs, sum(prompt_tokens)::float8 AS prompt_tokens,
          sum(completion_tokens)::float8 AS completion_tokens, sum(total_tokens)::float8 AS total_tokens
        FROM agent_runs WHERE chatbot_id = ${chatbotId} AND status != 'pending' AND finished_at >= ${since} GROUP BY day`),
    countWithStatus: (chatbotId, status) => count(sql`SELECT count(*)::int AS n FROM conversations WHERE chatbot_id = ${chatbotId} AND status = ${status}`),
    countWaiting: (chatbotId) =>
      count(sql`SELECT count(*)::int AS n FROM desk_threads WHERE chatbot_id = ${chatbotId} AND status = 'handoff' AND waiting_since IS NOT NULL`),
    ratingsSince: (chatbotId, since) =>
      all(sql<{ rating: 'good' | 'neutral' | 'bad'; n: number }[]>`SELECT t.rating, count(*)::int AS n FROM conversation_ratings r
        JOIN desk_threads t ON t.conversation_id = r.conversation_id WHERE t.chatbot_id = ${chatbotId} AND r.created_at >= ${since} GROUP BY t.rating`),
    agentFailuresPerDay: (chatbotId, since) =>
      all(sql<{ day: string; n: number }[]>`SELECT substr(finished_at, 1, 10) AS day, count(*)::int AS n FROM agent_runs
        WHERE chatbot_id = ${chatbotId} AND finished_at >= ${since} AND status = 'done' AND outcome = 'failed' GROUP BY day`),
    latestAgentFailures: (chatbotId, since, limit) =>
      all(sql<LatestFailure[]>`SELECT conversation_id, finished_at, state, failure FROM agent_runs
        WHERE chatbot_id = ${chatbotId} AND finished_at >= ${since} AND status = 'done' AND outcome = 'failed'
        ORDER BY finished_at COLLATE "C" DESC, id COLLATE "C" DESC LIMIT ${limit}`),
  }
}
