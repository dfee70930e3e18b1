import { t } from 'elysia'
import { Id, listOf, Timestamp } from '../http/common-model.ts'

const Tokens = {
  runs: t.Integer({ minimum: 0, description: 'finished runs (answered, exited, failed, merged or dropped)' }),
  model_calls: t.Integer({ minimum: 0 }),
  prompt_tokens: t.Integer({ minimum: 0 }),
  completion_tokens: t.Integer({ minimum: 0 }),
  total_tokens: t.Integer({ minimum: 0, description: "as the model's provider reported it; 0 when it reports no usage" }),
}

export const TraceEntry = t.Object(
  {
    id: Id,
    run_id: Id,
    internal: t.Literal(true, { description: 'always true: for the team only, never sent to a visitor, a webhook or the messaging app' }),
    kind: t.Union([t.Literal('model'), t.Literal('tool'), t.Literal('exit'), t.Literal('run')]),
    detail: t.Record(t.String(), t.Unknown(), {
      description:
        'model: {model, finish_reason, usage, latency_ms, content, tool_calls?, error?}; tool: {name, arguments, result, is_error, latency_ms}; ' +
        'exit: {exit, to, values}; run: {status, outcome, reason?, message_id?, answered_runs, model_calls, prompt_tokens, completion_tokens, total_tokens}',
    }),
    created_at: Timestamp,
  },
  {
    examples: [
      {
        id: '01JD3Q5B8C9D0E1F2G3H4J5K6M',
        run_id: '01JD3Q5A7B8C9D0E1F2G3H4J5K',
        internal: true,
        kind: 'tool',
        detail: { name: 'billing__find_invoice', arguments: '{"number":"INV-7"}', result: 'INV-7: paid', is_error: false, latency_ms: 41.2 },
        created_at: '2026-11-23T11:30:00.000Z',
      },
    ],
  },
)
export type TraceEntry = typeof TraceEntry.static

export const TraceList = t.Composite([listOf(TraceEntry), t.Object({ usage: t.Object(Tokens) })])
export type TraceList = typeof TraceList.static

export const ConversationUsage = t.Object({ conversation_id: Id, ...Tokens })

export const ChatbotUsage = t.Object({
  chatbot_id: Id,
  ...Tokens,
  conversations: t.Object(
    { items: t.Array(ConversationUsage), total: t.Integer({ minimum: 0 }) },
    { description: 'per conversation, most tokens first (limit and offset page it)' },
  ),
})
export type ChatbotUsage = typeof ChatbotUsage.static
