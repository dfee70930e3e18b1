import type { Database } from 'bun:sqlite'
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

export type RunStore = ReturnType<typeof runStore>

const TOTALS = `count(*) AS runs, coalesce(sum(model_calls), 0) AS model_calls, coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
  coalesce(sum(completion_tokens), 0) AS completion_tokens, coalesce(sum(total_tokens), 0) AS total_tokens`

/**
 * A conversation's finished runs, through the index that leads with its chatbot: by the
 * conversation alone no index reaches them (the pending index holds only pending runs), and
 * every run ever was read.
 */
export const CONVERSATION_TOTALS_SQL = `SELECT ${TOTALS} FROM agent_runs WHERE chatbot_id = ? AND conversation_id = ? AND status != 'pending'`

/** The autopilot's rows: runs (pending and finished, with their token counts) and trace entries. */
export function runStore(db: Database) {
  const insert = db.query<unknown, [string, string, string, string, string]>(
    "INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
  )
  const pendingOf = db.query<PendingRun, [string]>(
    "SELECT id, conversation_id, chatbot_id, state, created_at FROM agent_runs WHERE conversation_id = ? AND status = 'pending' ORDER BY id",
  )
  const everyPendingConversation = db.query<{ conversation_id: string }, []>(
    "SELECT DISTINCT conversation_id FROM agent_runs WHERE status = 'pending'",
  )
  const isPending = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM agent_runs WHERE id = ? AND status = 'pending'")
  const finish = db.query<unknown, [string, string, number, number, number, number, string, string | null, string]>(
    `UPDATE agent_runs SET status = ?, outcome = ?, model_calls = ?, prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, finished_at = ?, failure = ?
     WHERE id = ? AND status = 'pending'`,
  )
  const dropPending = db.query<unknown, [string, string, string]>(
    "UPDATE agent_runs SET status = 'dropped', outcome = ?, finished_at = ? WHERE conversation_id = ? AND status = 'pending'",
  )
  const insertTrace = db.query<unknown, [string, string, string, string, string, string]>(
    'INSERT INTO agent_trace (id, conversation_id, run_id, kind, detail, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const tracePage = db.query<TraceRow, [string, number, number]>('SELECT * FROM agent_trace WHERE conversation_id = ? ORDER BY id LIMIT ? OFFSET ?')
  const traceCount = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM agent_trace WHERE conversation_id = ?')
  const chatbotTotals = db.query<RunTotals, [string]>(`SELECT ${TOTALS} FROM agent_runs WHERE chatbot_id = ? AND status != 'pending'`)
  const conversationTotals = db.query<RunTotals & { conversation_id: string }, [string, number, number]>(
    `SELECT conversation_id, ${TOTALS} FROM agent_runs WHERE chatbot_id = ? AND status != 'pending'
     GROUP BY conversation_id ORDER BY total_tokens DESC, conversation_id LIMIT ? OFFSET ?`,
  )
  const conversationCount = db.query<{ n: number }, [string]>(
    "SELECT count(DISTINCT conversation_id) AS n FROM agent_runs WHERE chatbot_id = ? AND status != 'pending'",
  )
  const oneConversation = db.query<RunTotals, [string, string]>(CONVERSATION_TOTALS_SQL)
  // The chatbots domain's row, read for the run: its workspace (the concurrency bound, the MCP
  // lookups) and its model settings, as they are when the run starts.
  const chatbot = db.query<ChatbotOfRun, [string]>('SELECT workspace_id, llm FROM chatbots WHERE id = ?')

  return {
    insert: (run: PendingRun) => void insert.run(run.id, run.conversation_id, run.chatbot_id, run.state, run.created_at),
    pendingOf: (conversationId: string) => pendingOf.all(conversationId),
    pendingConversations: () => everyPendingConversation.all().map((row) => row.conversation_id),
    isPending: (id: string) => (isPending.get(id)?.n ?? 0) > 0,
    finish(run: FinishedRun): void {
      finish.run(run.status, run.outcome, run.model_calls, run.prompt_tokens, run.completion_tokens, run.total_tokens, run.finished_at, run.failure ? JSON.stringify(run.failure) : null, run.id)
    },
    dropPending: (conversationId: string, reason: string, at: string) => void dropPending.run(reason, at, conversationId),
    insertTrace: (row: TraceRow) => void insertTrace.run(row.id, row.conversation_id, row.run_id, row.kind, row.detail, row.created_at),
    trace(conversationId: string, page: Page): PageOf<TraceRow> {
      return { items: tracePage.all(conversationId, page.limit, page.offset), total: traceCount.get(conversationId)?.n ?? 0 }
    },
    chatbotTotals: (chatbotId: string) => chatbotTotals.get(chatbotId) as RunTotals,
    conversationTotals(chatbotId: string, page: Page): PageOf<RunTotals & { conversation_id: string }> {
      return { items: conversationTotals.all(chatbotId, page.limit, page.offset), total: conversationCount.get(chatbotId)?.n ?? 0 }
    },
    totalsOfConversation: (chatbotId: string, conversationId: string) => oneConversation.get(chatbotId, conversationId) as RunTotals,
    chatbot: (chatbotId: string) => chatbot.get(chatbotId) ?? undefined,
  }
}
