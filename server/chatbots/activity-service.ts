import { notFound } from '../http/api-error.ts'
import type { Clock } from '../support/clock.ts'
import type { ActivityStore } from './activity-store.ts'
import type { ChatbotActivity } from './activity-model.ts'

export const ACTIVITY_DAYS = 30
/** Failed agent runs the overview lists, newest first. */
const RECENT_FAILURES = 5
const DAY_MS = 24 * 60 * 60 * 1000

export type ActivityService = ReturnType<typeof activityService>

/** What the console's overview of a chatbot shows: how busy it has been, and who waits for a person. */
export function activityService({ stores, now }: { stores: { chatbotActivity: ActivityStore }; now: Clock }) {
  const store = stores.chatbotActivity
  return {
    async of(workspaceId: string, chatbotId: string): Promise<ChatbotActivity> {
      if (!(await store.chatbotExists(workspaceId, chatbotId))) throw notFound('chatbot')
      const today = Date.parse(`${now().slice(0, 10)}T00:00:00.000Z`)
      const first = today - (ACTIVITY_DAYS - 1) * DAY_MS
      const since = new Date(first).toISOString()
      // Reads only: asked at once, not one after another (on PostgreSQL each is a round trip).
      const [perDay, tokens, failures, ratingRows, latestFailures, openHandoffs, waiting] = await Promise.all([
        store.conversationsPerDay(chatbotId, since),
        store.agentTokensPerDay(chatbotId, since),
        store.agentFailuresPerDay(chatbotId, since),
        store.ratingsSince(chatbotId, since),
        store.latestAgentFailures(chatbotId, since, RECENT_FAILURES),
        store.countWithStatus(chatbotId, 'handoff'),
        store.countWaiting(chatbotId),
      ])
      const counted = new Map(perDay.map(({ day, n }) => [day, n]))
      const tokensOn = new Map(tokens.map((row) => [row.day, row.total_tokens]))
      const failuresOn = new Map(failures.map(({ day, n }) => [day, n]))
      const days = Array.from({ length: ACTIVITY_DAYS }, (_, index) => {
        const date = new Date(first + index * DAY_MS).toISOString().slice(0, 10)
        return { date, conversations: counted.get(date) ?? 0, agent_tokens: tokensOn.get(date) ?? 0, agent_failures: failuresOn.get(date) ?? 0 }
      })
      const sum = (pick: (row: (typeof tokens)[number]) => number) => tokens.reduce((total, row) => total + pick(row), 0)
      const agent_usage = {
        runs: sum((row) => row.runs),
        prompt_tokens: sum((row) => row.prompt_tokens),
        completion_tokens: sum((row) => row.completion_tokens),
        total_tokens: sum((row) => row.total_tokens),
      }
      const rated = { good: 0, neutral: 0, bad: 0 }
      for (const row of ratingRows) rated[row.rating] = row.n
      const count = rated.good + rated.neutral + rated.bad
      const ratings = { count, ...rated, csat: count > 0 ? Math.round((rated.good / count) * 1000) / 1000 : null }
      const recent_agent_failures = latestFailures.map((row) => {
        const failure = row.failure ? (JSON.parse(row.failure) as { kind: string; message: string; http_status: number | null }) : null
        return {
          conversation_id: row.conversation_id,
          at: row.finished_at,
          state: row.state,
          kind: failure?.kind ?? 'provider_error',
          message: failure?.message ?? 'the model could not be used',
          http_status: failure?.http_status ?? null,
        }
      })
      return { days, open_handoffs: openHandoffs, waiting, ratings, agent_usage, recent_agent_failures }
    },
  }
}
