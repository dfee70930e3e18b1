import { type Static, t } from 'elysia'

export const ChatbotActivity = t.Object({
  days: t.Array(
    t.Object({
      date: t.String({ format: 'date', description: 'a UTC day', examples: ['2026-11-22'] }),
      conversations: t.Integer({ minimum: 0, description: 'conversations started that day, in any channel' }),
      agent_tokens: t.Integer({ minimum: 0, description: 'tokens (prompt and completion) of the LLM agent runs that finished that day' }),
      agent_failures: t.Integer({ minimum: 0, description: 'LLM agent runs that failed that day (the model could not be used, or gave no answer)' }),
    }),
    { description: 'the last 30 UTC days, oldest first, today last; days without conversations count 0' },
  ),
  open_handoffs: t.Integer({ minimum: 0, description: 'conversations handed to a person and not yet handed back or closed' }),
  waiting: t.Integer({ minimum: 0, description: "open handoffs whose visitor waits for a person now: not answered since their last message (the desk's Waiting view)" }),
  ratings: t.Object(
    {
      count: t.Integer({ minimum: 0 }),
      good: t.Integer({ minimum: 0, description: 'thumbs up, or 4 or 5 stars' }),
      neutral: t.Integer({ minimum: 0, description: '3 stars' }),
      bad: t.Integer({ minimum: 0, description: 'thumbs down, or 1 or 2 stars' }),
      csat: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], { description: 'good / count (customer satisfaction), null without ratings' }),
    },
    { description: "visitors' end ratings given in the same 30 days" },
  ),
  agent_usage: t.Object(
    {
      runs: t.Integer({ minimum: 0, description: 'LLM agent runs finished in the 30 days' }),
      prompt_tokens: t.Integer({ minimum: 0 }),
      completion_tokens: t.Integer({ minimum: 0 }),
      total_tokens: t.Integer({ minimum: 0 }),
    },
    { description: "the chatbot's LLM agent token usage over the same 30 days (all time, per conversation: GET /chatbots/{id}/usage)" },
  ),
  recent_agent_failures: t.Array(
    t.Object({
      conversation_id: t.String(),
      at: t.String({ description: 'when the run failed' }),
      state: t.String({ description: 'the agent state' }),
      kind: t.String({ description: 'dns, refused, tls, timeout, blocked_address, unauthorized, not_found, rate_limited, provider_error, bad_request, bad_answer, no_model or no_answer (docs/agents.md)' }),
      message: t.String({ description: "why, in Parley's words: never the provider's text or a secret" }),
      http_status: t.Union([t.Integer(), t.Null()]),
    }),
    { description: 'the 5 newest failed LLM agent runs of the 30 days, newest first' },
  ),
})
export type ChatbotActivity = Static<typeof ChatbotActivity>
