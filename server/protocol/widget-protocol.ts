import { type Static, t } from 'elysia'
import { RatingScale, WidgetConfig } from './widget-config.ts'
import { LANGUAGE_TAG_MAX_LENGTH, LANGUAGE_TAG_PATTERN } from './widget-locales.ts'

export { UPLOAD_PATH, UPLOAD_TYPES } from './upload-rules.ts'

/**
 * The widget's wire protocol, version 1: JSON text frames over the socket at
 * `/widget/v1/socket?key=wk_...`. The server validates what it receives against these
 * schemas; the widget imports only the types (`import type`), so no runtime code of this
 * module reaches the browser bundle. docs/widget-protocol.md explains the exchange.
 */

export const PROTOCOL_VERSION = 1

/**
 * What one frame from the widget may weigh, checked before it is parsed. The largest frame
 * the widget sends (a hello with 13 contact details of 300 characters, or a 4,096-character
 * message, every character escaped) stays under 30 KB, two levels deep, with about 20 object
 * members; a custom client may nest a contact detail (it is dropped) or send a few more.
 * Parsing, validating and explaining a frame all walk it, so past these bounds a frame would
 * cost the serving thread more than any visitor may.
 */
export const FRAME_LIMITS = {
  /** Bytes of one frame; a bigger one closes the socket with 1009 before it is read whole. */
  maxBytes: 64 * 1024,
  /** Nesting of objects and arrays. */
  maxDepth: 8,
  /** Object members in the whole frame. */
  maxKeys: 100,
} as const

const ClientId = t.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'chosen by the widget; a resend with the same id is not stored twice' })
const MessageId = t.String({ minLength: 1, maxLength: 64 })
const ContactDetails = t.Record(t.String(), t.Unknown(), { description: 'free labels; scalars kept, nested values dropped' })

// ---- content of a chat message (what a bubble shows) ----

const Button = t.Object({ id: t.String(), title: t.String() })
const ListSection = t.Object({
  title: t.Optional(t.String()),
  rows: t.Array(t.Object({ id: t.String(), title: t.String(), description: t.Optional(t.String()) })),
})

export const Content = t.Union([
  t.Object({ kind: t.Literal('text'), text: t.String() }),
  t.Object({ kind: t.Literal('buttons'), text: t.String(), buttons: t.Array(Button) }),
  t.Object({ kind: t.Literal('list'), text: t.String(), button: t.String(), sections: t.Array(ListSection) }),
  t.Object({
    kind: t.Literal('media'),
    media: t.Object({
      type: t.Union([t.Literal('image'), t.Literal('video'), t.Literal('audio'), t.Literal('file')]),
      url: t.String(),
      caption: t.Optional(t.String()),
      filename: t.Optional(t.String()),
    }),
  }),
  /** A visitor's pick of a button or list row. */
  t.Object({ kind: t.Literal('reply'), reply_to: t.Union([t.Literal('button'), t.Literal('row')]), id: t.String(), title: t.String() }),
  /** A messaging-app form; the web widget shows its call to action as text. */
  t.Object({ kind: t.Literal('meta_flow'), flow_id: t.String(), cta: t.String() }),
])
export type Content = Static<typeof Content>

export const Role = t.Union([t.Literal('visitor'), t.Literal('bot'), t.Literal('agent'), t.Literal('system')])
export type Role = Static<typeof Role>

export const ChatMessage = t.Object({
  id: MessageId,
  conversation_id: t.String(),
  role: Role,
  /** On visitor messages: the widget's own id, so the sending tab recognises its echo. */
  client_id: t.Optional(t.String()),
  /** On agent messages: the agent's display name, when given. */
  author: t.Optional(t.String()),
  /** On agent messages: the agent's picture (an https image), when given; the widget shows initials without one. */
  author_avatar_url: t.Optional(t.String()),
  content: Content,
  created_at: t.String(),
})
export type ChatMessage = Static<typeof ChatMessage>

export const ConversationStatus = t.Union([t.Literal('bot'), t.Literal('handoff'), t.Literal('closed')])
export type ConversationStatus = Static<typeof ConversationStatus>

export { RatingScale }
export type RatingScale = Static<typeof RatingScale>

/** The visitor's rating of a closed conversation: thumbs 0 (down) or 1 (up), stars 1 to 5. */
export const ConversationRating = t.Object({
  scale: RatingScale,
  score: t.Integer({ minimum: 0, maximum: 5 }),
  comment: t.Union([t.String(), t.Null()]),
  created_at: t.String(),
})
export type ConversationRating = Static<typeof ConversationRating>

/** How far one side has read a conversation: every message up to this id, at this time. */
export const ReadMark = t.Object({ up_to: t.String(), at: t.String() })
export type ReadMark = Static<typeof ReadMark>

// ---- widget -> server ----

export const Hello = t.Object({
  type: t.Literal('hello'),
  v: t.Literal(PROTOCOL_VERSION),
  /** The anonymous visitor's token from an earlier welcome, kept by the widget. */
  visitor_token: t.Optional(t.String({ maxLength: 128 })),
  /** identify(): an e-mail address or a phone number. */
  user_id: t.Optional(t.String({ maxLength: 256 })),
  /** identify(user_id, {hash}): hex HMAC-SHA256(identity_secret, user_id). */
  user_hash: t.Optional(t.String({ maxLength: 256 })),
  /** setContactDetails(): sent on every (re)connect and merged. */
  contact_details: t.Optional(ContactDetails),
  /** The newest message id the widget already shows: only later messages come back. */
  after: t.Optional(MessageId),
  /** The page the visitor is on (for agents' context). */
  page_url: t.Optional(t.String({ maxLength: 2048 })),
  /** The browser's language (navigator.language), stored as the contact's `locale`. */
  locale: t.Optional(
    t.String({
      pattern: LANGUAGE_TAG_PATTERN.source,
      maxLength: LANGUAGE_TAG_MAX_LENGTH,
      error: `must be a language tag such as pt-BR, at most ${LANGUAGE_TAG_MAX_LENGTH} characters`,
    }),
  ),
})

export const ClientMessage = t.Union([
  Hello,
  /** The visitor opened the chat: starts a conversation (greeting, then the flow) if none is running. */
  t.Object({ type: t.Literal('start') }),
  t.Object({ type: t.Literal('message'), client_id: ClientId, text: t.String({ minLength: 1, maxLength: 4096 }) }),
  t.Object({
    type: t.Literal('reply'),
    client_id: ClientId,
    reply_to: t.Union([t.Literal('button'), t.Literal('row')]),
    id: t.String({ minLength: 1, maxLength: 256 }),
    title: t.String({ maxLength: 256 }),
  }),
  t.Object({ type: t.Literal('typing'), active: t.Boolean() }),
  t.Object({ type: t.Literal('contact_details'), details: ContactDetails }),
  /** Older history, before a message id. */
  t.Object({ type: t.Literal('history'), before: MessageId }),
  t.Object({ type: t.Literal('ping') }),
  /** The visitor has seen the conversation up to this message (the chat open, the message shown). */
  t.Object({ type: t.Literal('read'), up_to: MessageId }),
  /** The end rating of a closed conversation, once (widget_config.rating names the scale). */
  t.Object({
    type: t.Literal('rate'),
    conversation_id: MessageId,
    score: t.Integer({ minimum: 0, maximum: 5 }),
    comment: t.Optional(t.String({ maxLength: 1000 })),
  }),
])
export type ClientMessage = Static<typeof ClientMessage>

// ---- server -> widget ----

export const ServerMessage = t.Union([
  t.Object({
    type: t.Literal('welcome'),
    visitor_token: t.String(),
    conversation: t.Union([
      t.Object({
        id: t.String(),
        status: ConversationStatus,
        /** Its end rating, once given (null: not rated). */
        rating: t.Optional(t.Union([ConversationRating, t.Null()])),
        /** How far the bot or an agent has read the visitor's messages (null: nothing yet). */
        read_by_team: t.Optional(t.Union([ReadMark, t.Null()])),
        /** Handed off outside the chatbot's business hours, and no e-mail known: the widget asks for one. */
        ask_email: t.Optional(t.Literal(true)),
      }),
      t.Null(),
    ]),
    /** The latest messages, oldest first, or only those after hello.after. */
    messages: t.Array(ChatMessage),
    has_more: t.Boolean(),
    /**
     * This socket's permission to send files (POST UPLOAD_PATH): good while the socket is open
     * and for a minute after it closes; every welcome brings a new one.
     */
    upload_token: t.String(),
    /** The largest file the server takes, in bytes (PARLEY_ATTACHMENT_MAX_BYTES). */
    upload_max_bytes: t.Integer(),
  }),
  t.Object({ type: t.Literal('message'), message: ChatMessage }),
  t.Object({ type: t.Literal('history'), messages: t.Array(ChatMessage), has_more: t.Boolean() }),
  t.Object({ type: t.Literal('typing'), from: t.Union([t.Literal('bot'), t.Literal('agent')]), active: t.Boolean() }),
  /**
   * The bot's answer while it is written (an LLM agent state): opens a draft, or replaces the
   * whole text of one the widget already shows (after a reconnect, or when it fell behind).
   * `message_id` is the id the stored message will have: the `message` frame with that id ends
   * the draft and takes its place. A draft is never stored and never comes back in a welcome.
   */
  t.Object({ type: t.Literal('draft'), conversation_id: t.String(), message_id: MessageId, text: t.String() }),
  /** More text of a draft: `text` goes at character `at` (the draft's length before it). */
  t.Object({ type: t.Literal('draft_delta'), message_id: MessageId, at: t.Integer({ minimum: 0 }), text: t.String() }),
  /** The draft is abandoned (the run failed, or a person took over): it disappears, no message follows. */
  t.Object({ type: t.Literal('draft_dropped'), message_id: MessageId }),
  t.Object({
    type: t.Literal('status'),
    conversation_id: t.String(),
    status: ConversationStatus,
    /** Handed off outside the chatbot's business hours, and no e-mail known: the widget asks for one instead of promising an answer here. */
    ask_email: t.Optional(t.Literal(true)),
  }),
  /** A refused request that does not end the connection (e.g. an over-long message). */
  t.Object({ type: t.Literal('error'), code: t.String(), message: t.String(), client_id: t.Optional(t.String()) }),
  t.Object({ type: t.Literal('pong') }),
  /** The bot or an agent has read the visitor's messages up to `up_to`. */
  t.Object({ type: t.Literal('read'), conversation_id: t.String(), up_to: t.String(), at: t.String() }),
  /** A conversation was rated (from any tab of the visitor). */
  t.Object({ type: t.Literal('rating'), conversation_id: t.String(), rating: ConversationRating }),
])
export type ServerMessage = Static<typeof ServerMessage>

// ---- files from the visitor ----

/** The answer to an upload: the visitor's media message as stored (the earlier copy for a resend). */
export const UploadAnswer = t.Object({ message: ChatMessage })
export type UploadAnswer = Static<typeof UploadAnswer>

// ---- the public widget configuration, fetched before connecting ----

/** GET /widget/v1/config/{widget_key}: what the widget needs to draw itself and decide where to show. */
export const WidgetBootConfig = t.Object({
  name: t.String(),
  greeting_message: t.Union([t.String(), t.Null()]),
  widget_config: WidgetConfig,
  socket_path: t.String({ description: 'path of the socket, relative to the server origin' }),
})
export type WidgetBootConfig = Static<typeof WidgetBootConfig>
