import { t, type Static } from 'elysia'
import { Id, listOf, Timestamp } from '../http/common-model.ts'

const Name = t.String({ minLength: 1, maxLength: 200, examples: ['Support bot'] })

export const Chatbot = t.Object({
  id: Id,
  name: t.String(),
  entry_flow_id: t.Union([Id, t.Null()], { description: 'conversation flow new conversations start in' }),
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
  },
  { additionalProperties: false },
)
export type UpdateChatbot = Static<typeof UpdateChatbot>
