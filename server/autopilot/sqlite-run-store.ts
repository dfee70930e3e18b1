import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import { type ChatbotOfRun, CONVERSATION_TOTALS_SQL, type PendingRun, type RunStore, type RunTotals, TOTALS, type TraceRow } from './run-store.ts'

export function sqliteRunStore(db: Database): RunStore {
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
  const chatbot = db.query<ChatbotOfRun, [string]>('SELECT workspace_id, llm FROM chatbots WHERE id = ?')

  return {
    insert: (run) => settled(() => void insert.run(run.id, run.conversation_id, run.chatbot_id, run.state, run.created_at)),
    pendingOf: (conversationId) => settled(() => pendingOf.all(conversationId)),
    pendingConversations: () => settled(() => everyPendingConversation.all().map((row) => row.conversation_id)),
    isPending: (id) => settled(() => (isPending.get(id)?.n ?? 0) > 0),
    recordEnd: (runs, trace) =>
      settled(() => {
        for (const run of runs) {
          const failure = run.failure ? JSON.stringify(run.failure) : null
          finish.run(run.status, run.outcome, run.model_calls, run.prompt_tokens, run.completion_tokens, run.total_tokens, run.finished_at, failure, run.id)
        }
        for (const row of trace) insertTrace.run(row.id, row.conversation_id, row.run_id, row.kind, row.detail, row.created_at)
      }),
    trace: (conversationId, page) =>
      settled(() => ({ items: tracePage.all(conversationId, page.limit, page.offset), total: traceCount.get(conversationId)?.n ?? 0 })),
    chatbotTotals: (chatbotId) => settled(() => chatbotTotals.get(chatbotId) as RunTotals),
    conversationTotals: (chatbotId, page) =>
      settled(() => ({ items: conversationTotals.all(chatbotId, page.limit, page.offset), total: conversationCount.get(chatbotId)?.n ?? 0 })),
    totalsOfConversation: (chatbotId, conversationId) => settled(() => oneConversation.get(chatbotId, conversationId) as RunTotals),
    chatbot: (chatbotId) => settled(() => chatbot.get(chatbotId) ?? undefined),
  }
}
