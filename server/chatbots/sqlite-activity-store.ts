import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { ActivityStore, LatestFailure, TokensOfDay } from './activity-store.ts'

export function sqliteActivityStore(db: Database): ActivityStore {
  const chatbotInWorkspace = db.query<{ id: string }, [string, string]>('SELECT id FROM chatbots WHERE id = ? AND workspace_id = ?')
  // Dates are ISO 8601 UTC strings: the first 10 characters are the UTC day.
  const perDay = db.query<{ day: string; n: number }, [string, string]>(
    `SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM conversations
     WHERE chatbot_id = ? AND created_at >= ? GROUP BY day`,
  )
  // Finished LLM agent runs (server/autopilot/ writes them; read here for the overview only), by the UTC day they finished.
  const tokensPerDay = db.query<TokensOfDay, [string, string]>(
    `SELECT substr(finished_at, 1, 10) AS day, count(*) AS runs, sum(prompt_tokens) AS prompt_tokens,
       sum(completion_tokens) AS completion_tokens, sum(total_tokens) AS total_tokens
     FROM agent_runs WHERE chatbot_id = ? AND status != 'pending' AND finished_at >= ? GROUP BY day`,
  )
  const byStatus = db.query<{ n: number }, [string, string]>('SELECT count(*) AS n FROM conversations WHERE chatbot_id = ? AND status = ?')
  // The desk's threads (server/desk/ keeps them): a visitor waits for a person while waiting_since is set.
  // Prepared on first use (db.query caches them): the columns come with migration 21, and the
  // store is also built on older databases by the migration tests before they upgrade them.
  const waiting = () => db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM desk_threads WHERE chatbot_id = ? AND status = 'handoff' AND waiting_since IS NOT NULL")
  // Visitors' ratings given from `since` on, by how the desk groups them (migration 21's desk_threads.rating).
  const ratings = () =>
    db.query<{ rating: 'good' | 'neutral' | 'bad'; n: number }, [string, string]>(
      `SELECT t.rating, count(*) AS n FROM conversation_ratings r JOIN desk_threads t ON t.conversation_id = r.conversation_id
       WHERE t.chatbot_id = ? AND r.created_at >= ? GROUP BY t.rating`,
    )
  // Runs that failed (their failure classified by the autopilot), through the same (chatbot, finished_at) index.
  const failuresPerDay = db.query<{ day: string; n: number }, [string, string]>(
    `SELECT substr(finished_at, 1, 10) AS day, count(*) AS n FROM agent_runs
     WHERE chatbot_id = ? AND finished_at >= ? AND status = 'done' AND outcome = 'failed' GROUP BY day`,
  )
  // On first use too: `failure` comes with migration 26 (bench:activity builds the store on a database before migration 20).
  const latestFailures = () =>
    db.query<LatestFailure, [string, string, number]>(
      `SELECT conversation_id, finished_at, state, failure FROM agent_runs
       WHERE chatbot_id = ? AND finished_at >= ? AND status = 'done' AND outcome = 'failed' ORDER BY finished_at DESC, id DESC LIMIT ?`,
    )

  return {
    chatbotExists: (workspaceId, chatbotId) => settled(() => chatbotInWorkspace.get(chatbotId, workspaceId) !== null),
    conversationsPerDay: (chatbotId, since) => settled(() => perDay.all(chatbotId, since)),
    agentTokensPerDay: (chatbotId, since) => settled(() => tokensPerDay.all(chatbotId, since)),
    countWithStatus: (chatbotId, status) => settled(() => byStatus.get(chatbotId, status)?.n ?? 0),
    countWaiting: (chatbotId) => settled(() => waiting().get(chatbotId)?.n ?? 0),
    ratingsSince: (chatbotId, since) => settled(() => ratings().all(chatbotId, since)),
    agentFailuresPerDay: (chatbotId, since) => settled(() => failuresPerDay.all(chatbotId, since)),
    latestAgentFailures: (chatbotId, since, limit) => settled(() => latestFailures().all(chatbotId, since, limit)),
  }
}
