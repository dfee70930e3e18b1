import type { Page, PageOf } from '../http/common-model.ts'
import type { ModelFailure } from '../llm/classify-failure.ts'

/** A run waiting to be worked (or re-worked after a restart). */
export interface PendingRun {
  id: string
  conversation_id: string
  chatbot_id: string
  state: string
  /** When the visitor's message it answers was stored. */
  created_at: string
}

export type RunStatus = 'done' | 'merged' | 'dropped'

export interface RunTotals {
  runs: number
  model_calls: number
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

export interface FinishedRun extends RunTotals {
  id: string
  status: RunStatus
  outcome: string
  finished_at: string
  /** Why a run that failed did (classified, no secret); null for every other run. */
  failure?: ModelFailure | null
}

export interface TraceRow {
  id: string
  conversation_id: string
  run_id: string
  kind: string
  detail: string
  created_at: string
}

export interface ChatbotOfRun {
  workspace_id: string
  llm: string | null
}

/**
 * The autopilot's rows: runs (pending and finished, with their token counts) and trace entries
 * (docs/architecture.md, "The store seam").
 */
export interface RunStore {
  /** A pending run, written with the turn that asked for it. */
  insert(run: PendingRun): Promise<void>
  /** A conversation's pending runs, oldest first. */
  pendingOf(conversationId: string): Promise<PendingRun[]>
  /** Every conversation with a pending run (what an earlier process left). */
  pendingConversations(): Promise<string[]>
  isPending(id: string): Promise<boolean>
  /**
   * The end of runs answered together: each run finished (only while it is pending) and the
   * lead's trace, in one call, as one write.
   */
  recordEnd(runs: FinishedRun[], trace: TraceRow[]): Promise<void>
  /** A conversation's trace, oldest first. */
  trace(conversationId: string, page: Page): Promise<PageOf<TraceRow>>
  chatbotTotals(chatbotId: string): Promise<RunTotals>
  /** Per conversation, the most tokens first. */
  conversationTotals(chatbotId: string, page: Page): Promise<PageOf<RunTotals & { conversation_id: string }>>
  totalsOfConversation(chatbotId: string, conversationId: string): Promise<RunTotals>
  /**
   * The chatbots domain's row, read for the run: its workspace (the concurrency bound, the MCP
   * lookups) and its model settings, as they are when the run starts.
   */
  chatbot(chatbotId: string): Promise<ChatbotOfRun | undefined>
}

export const TOTALS = `count(*) AS runs, coalesce(sum(model_calls), 0) AS model_calls, coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
  coalesce(sum(completion_tokens), 0) AS completion_tokens, coalesce(sum(total_tokens), 0) AS total_tokens`

/**
 * A conversation's finished runs, through the index that leads with its chatbot: by the
 * conversation alone no index reaches them (the pending index holds only pending runs), and
 * every run ever was read.
 */
export const CONVERSATION_TOTALS_SQL = `SELECT ${TOTALS} FROM agent_runs WHERE chatbot_id = ? AND conversation_id = ? AND status != 'pending'`
