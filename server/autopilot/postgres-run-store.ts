import type { SQL } from 'bun'
import type { ChatbotOfRun, PendingRun, RunStore, RunTotals, TraceRow } from './run-store.ts'

/** Sums are int8, which Bun.sql reads as text: numbers again (exact up to 2^53). */
function totals<Row extends RunTotals>(row: Row): Row {
  return {
    ...row,
    runs: Number(row.runs),
    model_calls: Number(row.model_calls),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    total_tokens: Number(row.total_tokens),
  }
}

/** The same SQL as the SQLite side; ids order in byte order (COLLATE "C"), as SQLite compares text. */
export function postgresRunStore(sql: SQL): RunStore {
  return {
    async insert(run) {
      await sql`INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, created_at)
        VALUES (${run.id}, ${run.conversation_id}, ${run.chatbot_id}, ${run.state}, 'pending', ${run.created_at})`
    },
    pendingOf: async (conversationId) => [
      ...(await sql<PendingRun[]>`SELECT id, conversation_id, chatbot_id, state, created_at FROM agent_runs
        WHERE conversation_id = ${conversationId} AND status = 'pending' ORDER BY id COLLATE "C"`),
    ],
    pendingConversations: async () =>
      (await sql<{ conversation_id: string }[]>`SELECT DISTINCT conversation_id FROM agent_runs WHERE status = 'pending'`).map((row) => row.conversation_id),
    async isPending(id) {
      const rows = await sql`SELECT 1 FROM agent_runs WHERE id = ${id} AND status = 'pending'`
      return rows.length > 0
    },
    async recordEnd(runs, trace) {
      for (const run of runs) {
        const failure = run.failure ? JSON.stringify(run.failure) : null
        await sql`UPDATE agent_runs SET status = ${run.status}, outcome = ${run.outcome}, model_calls = ${run.model_calls}, prompt_tokens = ${run.prompt_tokens},
          completion_tokens = ${run.completion_tokens}, total_tokens = ${run.total_tokens}, finished_at = ${run.finished_at}, failure = ${failure}
          WHERE id = ${run.id} AND status = 'pending'`
      }
      if (trace.length > 0) await sql`INSERT INTO agent_trace ${sql(trace.map((row) => ({ ...row })), 'id', 'conversation_id', 'run_id', 'kind', 'detail', 'created_at')}`
    },
    async trace(conversationId, page) {
      const [items, [counted]] = await Promise.all([
        sql<TraceRow[]>`SELECT id, conversation_id, run_id, kind, detail, created_at FROM agent_trace WHERE conversation_id = ${conversationId}
          ORDER BY id COLLATE "C" LIMIT ${page.limit} OFFSET ${page.offset}`,
        sql<{ n: number }[]>`SELECT count(*)::int AS n FROM agent_trace WHERE conversation_id = ${conversationId}`,
      ])
      return { items: [...items], total: counted?.n ?? 0 }
    },
    async chatbotTotals(chatbotId) {
      const [row] = await sql<RunTotals[]>`SELECT count(*)::int AS runs, coalesce(sum(model_calls), 0)::int8 AS model_calls, coalesce(sum(prompt_tokens), 0)::int8 AS prompt_tokens,
          coalesce(sum(completion_tokens), 0)::int8 AS completion_tokens, coalesce(sum(total_tokens), 0)::int8 AS total_tokens FROM agent_runs WHERE chatbot_id = ${chatbotId} AND status != 'pending'`
      return totals(row as RunTotals)
    },
    async conversationTotals(chatbotId, page) {
      const [items, [counted]] = await Promise.all([
        sql<(RunTotals & { conversation_id: string })[]>`SELECT conversation_id, count(*)::int AS runs, coalesce(sum(model_calls), 0)::int8 AS model_calls, coalesce(sum(prompt_tokens), 0)::int8 AS prompt_tokens,
          coalesce(sum(completion_tokens), 0)::int8 AS completion_tokens, coalesce(sum(total_tokens), 0)::int8 AS total_tokens FROM agent_runs
          WHERE chatbot_id = ${chatbotId} AND status != 'pending'
          GROUP BY conversation_id ORDER BY total_tokens DESC, conversation_id COLLATE "C" LIMIT ${page.limit} OFFSET ${page.offset}`,
        sql<{ n: number }[]>`SELECT count(DISTINCT conversation_id)::int AS n FROM agent_runs WHERE chatbot_id = ${chatbotId} AND status != 'pending'`,
      ])
      return { items: items.map(totals), total: counted?.n ?? 0 }
    },
    async totalsOfConversation(chatbotId, conversationId) {
      const [row] = await sql<RunTotals[]>`SELECT count(*)::int AS runs, coalesce(sum(model_calls), 0)::int8 AS model_calls, coalesce(sum(prompt_tokens), 0)::int8 AS prompt_tokens,
          coalesce(sum(completion_tokens), 0)::int8 AS completion_tokens, coalesce(sum(total_tokens), 0)::int8 AS total_tokens FROM agent_runs
        WHERE chatbot_id = ${chatbotId} AND conversation_id = ${conversationId} AND status != 'pending'`
      return totals(row as RunTotals)
    },
    async chatbot(chatbotId) {
      const [row] = await sql<ChatbotOfRun[]>`SELECT workspace_id, llm FROM chatbots WHERE id = ${chatbotId}`
      return row
    },
  }
}
