/** Token counts of one UTC day's finished agent runs. */
export type TokensOfDay = { day: string; runs: number; prompt_tokens: number; completion_tokens: number; total_tokens: number }

export type LatestFailure = { conversation_id: string; finished_at: string; state: string; failure: string | null }

/**
 * The only SQL behind a chatbot's overview: counts over its conversations, agent runs and
 * ratings (docs/architecture.md, "The store seam"). Days are UTC days, the first 10
 * characters of the ISO timestamps both databases keep as text.
 */
export interface ActivityStore {
  chatbotExists(workspaceId: string, chatbotId: string): Promise<boolean>
  /** Conversations started per UTC day from `since` (an ISO timestamp) on; days without any are absent. */
  conversationsPerDay(chatbotId: string, since: string): Promise<{ day: string; n: number }[]>
  /** Token counts of the agent runs that finished per UTC day from `since` on; days without any are absent. */
  agentTokensPerDay(chatbotId: string, since: string): Promise<TokensOfDay[]>
  countWithStatus(chatbotId: string, status: 'bot' | 'handoff' | 'closed'): Promise<number>
  /** Conversations in handoff whose visitor waits for a person. */
  countWaiting(chatbotId: string): Promise<number>
  /** Visitors' ratings given from `since` on, by how the desk groups them. */
  ratingsSince(chatbotId: string, since: string): Promise<{ rating: 'good' | 'neutral' | 'bad'; n: number }[]>
  /** Failed agent runs per UTC day from `since` on; days without any are absent. */
  agentFailuresPerDay(chatbotId: string, since: string): Promise<{ day: string; n: number }[]>
  /** The newest failed agent runs from `since` on, newest first. */
  latestAgentFailures(chatbotId: string, since: string, limit: number): Promise<LatestFailure[]>
}
