import { t, type Static } from 'elysia'
import { Id, listOf, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'

const Name = nameText(200, { examples: ['Support bot'] })

export const LlmSettings = t.Object(
  {
    base_url: t.String({ description: 'an OpenAI-compatible API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama)' }),
    model: t.String(),
    temperature: t.Union([t.Number(), t.Null()]),
    api_key: t.Union([t.String(), t.Null()], { description: 'write-only: masked' }),
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
