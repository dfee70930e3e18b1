import { Type } from '@sinclair/typebox'
import { type Static, t } from 'elysia'
import { Id, listOf, PageQuery, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'
import { AVATAR_URL_MAX_LENGTH, AVATAR_URL_PATTERN } from '../protocol/widget-config-defaults.ts'
import { ChatMessage, Content, ConversationRating, ConversationStatus, ReadMark } from '../protocol/widget-protocol.ts'

export const Channel = t.Union([t.Literal('web'), t.Literal('chatapp'), t.Literal('rest-api')])
export type Channel = Static<typeof Channel>

export type ContactDetails = Record<string, string | number | boolean>

export const Contact = t.Object({
  id: Id,
  /** The normalised identity (E.164 phone or e-mail); null for an anonymous visitor. */
  external_id: t.Union([t.String(), t.Null()]),
  details: t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean()])),
  locale: t.Union([t.String(), t.Null()], {
    description: "the visitor's language, a BCP 47 tag such as pt-BR (the web widget sends the browser's); null when the channel does not say. Flows read it as contact.locale, and its primary language as contact.language",
    examples: ['pt-BR'],
  }),
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()]),
})
export type Contact = Static<typeof Contact>

export const Conversation = t.Object({
  id: Id,
  chatbot_id: Id,
  contact_id: Id,
  channel: Channel,
  integration_id: t.Union([t.String(), t.Null()]),
  flow_id: t.Union([t.String(), t.Null()], { description: 'the flow the bot runs; null when none was published' }),
  flow_version: t.Union([t.Integer(), t.Null()]),
  status: ConversationStatus,
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()]),
  last_message_at: Timestamp,
})
export type Conversation = Static<typeof Conversation>

export const ConversationReads = t.Object(
  {
    visitor: t.Union([ReadMark, t.Null()], { description: "how far the visitor has seen the conversation (web widget)" }),
    team: t.Union([ReadMark, t.Null()], { description: "how far the bot or an agent has read the visitor's messages" }),
  },
  { description: '"seen" marks: every message up to `up_to` was read at `at`' },
)
export type ConversationReads = Static<typeof ConversationReads>

export const ReadBody = t.Object(
  { up_to: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'a message id of the conversation; default: its newest message' })) },
  { additionalProperties: false },
)

export const ConversationWithContact = t.Composite([
  Conversation,
  t.Object({
    contact: Contact,
    rating: t.Union([ConversationRating, t.Null()], { description: "the visitor's end rating (web widget), once given" }),
    reads: ConversationReads,
  }),
])
export type ConversationWithContact = Static<typeof ConversationWithContact>

export const ConversationList = listOf(Conversation)

export const ConversationQuery = t.Composite([
  PageQuery,
  t.Object({
    status: t.Optional(ConversationStatus),
    channel: t.Optional(Channel),
    contact_id: t.Optional(t.String({ minLength: 1 })),
  }),
])

export { ChatMessage, Content }
export type Message = Static<typeof ChatMessage>
export const MessageList = listOf(ChatMessage)

export const AgentMessage = t.Object(
  {
    text: t.String({ minLength: 1, maxLength: 4096 }),
    author: t.Optional(nameText(100, { description: "the agent's display name" })),
    author_avatar_url: t.Optional(
      t.String({
        pattern: AVATAR_URL_PATTERN.source,
        maxLength: AVATAR_URL_MAX_LENGTH,
        error: `must be an https:// address of an image, at most ${AVATAR_URL_MAX_LENGTH} characters`,
        description: "the agent's picture, shown beside their name in the widget (initials without one); the rules of bot_avatar_url",
      }),
    ),
  },
  { additionalProperties: false },
)
export type AgentMessage = Static<typeof AgentMessage>

export const ConversationPatch = t.Object(
  {
    status: t.Union([t.Literal('bot'), t.Literal('handoff'), t.Literal('closed')], {
      description: 'bot: hand back to the bot; handoff: a person takes over; closed: end it',
    }),
  },
  { additionalProperties: false },
)
export type ConversationPatch = Static<typeof ConversationPatch>

export const TypingBody = t.Object({ active: Type.Boolean() }, { additionalProperties: false })

export const ConversationParams = t.Object({ chatbot_id: t.String(), conversation_id: t.String() })
