import { t, type Static } from 'elysia'
import { Id, listOf, Timestamp } from '../http/common-model.ts'
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS } from '../llm/answer-limits.ts'
import { nameText } from '../support/name-text.ts'

const Name = nameText(200, { examples: ['Support bot'] })

/** The deadlines a chatbot's model settings take when they name none (docs/agents.md). */
export const LLM_DEADLINE_DEFAULTS = { call_deadline_ms: 120_000, run_deadline_ms: 300_000 } as const

export const LlmSettings = t.Object(
  {
    base_url: t.String({ description: 'an OpenAI-compatible API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama)' }),
    model: t.String(),
    temperature: t.Union([t.Number(), t.Null()]),
    api_key: t.Union([t.String(), t.Null()], { description: 'write-only: masked' }),
    max_tokens: t.Integer({ description: `sent as max_tokens; what is kept of an answer follows from it (default ${DEFAULT_MAX_TOKENS})` }),
    call_deadline_ms: t.Integer({ description: `one model call, from sending to the end of its answer (default ${LLM_DEADLINE_DEFAULTS.call_deadline_ms})` }),
    run_deadline_ms: t.Integer({ description: `one run: every model and tool call and wait (default ${LLM_DEADLINE_DEFAULTS.run_deadline_ms})` }),
  },
  { description: "the model the chatbot's agent states use; null when none is set" },
)
export type LlmSettings = Static<typeof LlmSettings>

export const Chatbot = t.Object({
  id: Id,
  name: t.String(),
  entry_flow_id: t.Union([Id, t.Null()], { description: 'conversation flow new conversations start in' }),
  llm: t.Union([LlmSettings, t.Null()]),
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()]),
})
export type Chatbot = Static<typeof Chatbot>

export const ChatbotList = listOf(Chatbot)

export const CreateChatbot = t.Object({ name: Name }, { additionalProperties: false })
export type CreateChatbot = Static<typeof CreateChatbot>

export const UpdateChatbot = t.Object(
  {
    name: t.Optional(Name),
    entry_flow_id: t.Optional(t.Union([t.String({ minLength: 1 }), t.Null()])),
    llm: t.Optional(
      t.Union([
        t.Object(
          {
            base_url: t.String({ minLength: 1, maxLength: 2048 }),
            model: t.String({ minLength: 1, maxLength: 200 }),
            temperature: t.Optional(t.Union([t.Number({ minimum: 0, maximum: 2 }), t.Null()])),
            api_key: t.Optional(
              t.Union([t.String({ minLength: 1, maxLength: 1000 }), t.Null()], {
                description: 'write-only; omitted keeps the stored key while base_url stays the same (another base_url without it is 422), null removes it (Ollama and other local servers need none)',
              }),
            ),
            max_tokens: t.Optional(
              t.Union([t.Integer({ minimum: 1, maximum: MAX_MAX_TOKENS }), t.Null()], {
                description: `the most the model may write in one answer, sent as max_tokens (1 to ${MAX_MAX_TOKENS}); omitted keeps the stored value, null restores ${DEFAULT_MAX_TOKENS}`,
              }),
            ),
            call_deadline_ms: t.Optional(
              t.Union([t.Integer({ minimum: 1000, maximum: 600_000 }), t.Null()], {
                description: `one model call's whole time, 1 s to 10 min; omitted keeps the stored value, null restores ${LLM_DEADLINE_DEFAULTS.call_deadline_ms}`,
              }),
            ),
            run_deadline_ms: t.Optional(
              t.Union([t.Integer({ minimum: 1000, maximum: 1_800_000 }), t.Null()], {
                description: `one run's whole time (its model and tool calls and waits), 1 s to 30 min; omitted keeps the stored value, null restores ${LLM_DEADLINE_DEFAULTS.run_deadline_ms}`,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        t.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
)
export type UpdateChatbot = Static<typeof UpdateChatbot>
