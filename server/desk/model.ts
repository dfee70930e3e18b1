import { type Static, t } from 'elysia'
import { Id, Timestamp } from '../http/common-model.ts'
import { Channel, ChatMessage } from '../conversations/model.ts'
import { ConversationRating, ConversationStatus } from '../protocol/widget-protocol.ts'
import { LABEL_COLORS } from '../labels/model.ts'

export const VIEWS = ['waiting', 'mine', 'open', 'bot', 'closed'] as const
export type View = (typeof VIEWS)[number]

/** Ratings as the desk groups them (migration 21): good, bad, neutral, or any rating at all. */
export const RATING_FILTERS = ['any', 'good', 'neutral', 'bad'] as const
export type RatingFilter = (typeof RATING_FILTERS)[number]

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()])

/** A whole number in a query string: strict spelling, bounded (like PageQuery's limit). */
const QueryLimit = t
  .Transform(t.String({ pattern: '^(0|[1-9][0-9]{0,2})$', default: '25', description: 'a whole number from 1 to 100' }))
  .Decode((spelled) => Number(spelled))
  .Encode((value) => String(value))

export const DeskListQuery = t.Object({
  view: t.Optional(
    t.Union(VIEWS.map((view) => t.Literal(view)), {
      description:
        'waiting: handed off to a person, longest waiting first; mine: open and assigned to you (needs the session cookie); open: not closed; bot: with the bot; closed. Default open. Every view but waiting is newest conversation first.',
    }),
  ),
  chatbot_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  channel: t.Optional(Channel),
  rating: t.Optional(
    t.Union(RATING_FILTERS.map((rating) => t.Literal(rating)), {
      description: "only conversations the visitor rated: any rating; good (thumbs up, 4 or 5 stars); neutral (3 stars); bad (thumbs down, 1 or 2 stars)",
    }),
  ),
  q: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "search the contact's e-mail, phone and name (any part, 3 characters or more), what visitors and agents wrote (word prefixes), and labels (a label whose name begins with q: its conversations and its contacts')" })),
  label_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'only conversations carrying this label (GET /labels)' })),
  cursor: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'the next_cursor of the previous page' })),
  limit: t.Optional(QueryLimit),
})
export type DeskListQuery = Static<typeof DeskListQuery>

const ContactSummary = t.Object({
  id: Id,
  name: Nullable(t.String()),
  email: Nullable(t.String()),
  phone: Nullable(t.String()),
  identified: t.Boolean({ description: 'true when the contact has a verified identity (e-mail or phone)' }),
})

const Person = t.Object({ id: Id, display_name: t.String() })

export const DeskConversation = t.Object({
  id: Id,
  chatbot_id: Id,
  chatbot_name: t.String(),
  channel: Channel,
  integration_id: Nullable(t.String()),
  status: ConversationStatus,
  created_at: Timestamp,
  last_message_at: Timestamp,
  handoff_at: Nullable(Timestamp),
  waiting_since: Nullable(Timestamp),
  waiting_seconds: Nullable(
    t.Integer({
      description:
        "while the visitor waits for a person: seconds since their oldest unanswered message (the handoff, or their first message after a person's last reply); null once a person has replied",
    }),
  ),
  assignee: Nullable(Person),
  contact: ContactSummary,
  last_message: Nullable(
    t.Object({
      id: Id,
      role: t.String(),
      author: Nullable(t.String({ description: "the person's name on an agent message" })),
      preview: t.String(),
      created_at: Timestamp,
    }),
  ),
  rating: Nullable(ConversationRating),
  unread: t.Boolean({ description: 'a visitor wrote since you last read it (false with an API key)' }),
  labels: t.Array(t.Object({ id: Id, name: t.String(), color: t.UnionEnum(LABEL_COLORS) }), { description: "the conversation's labels, by name" }),
})
export type DeskConversation = Static<typeof DeskConversation>

export const DeskConversationList = t.Object({
  items: t.Array(DeskConversation),
  next_cursor: Nullable(t.String({ description: 'pass as `cursor` for the next page; null on the last page' })),
})

export const DeskConversationParams = t.Object({ conversation_id: t.String({ description: 'conversation ULID' }) })

export const DeskEvent = t.Object({
  id: t.Integer(),
  kind: t.Union([t.Literal('handed_off'), t.Literal('handed_back'), t.Literal('closed'), t.Literal('assigned'), t.Literal('unassigned'), t.Literal('rated'), t.Literal('agent_failed')]),
  at: Timestamp,
  actor: Nullable(Person),
  data: t.Record(t.String(), t.Unknown(), {
    description:
      "handed_off: from, state, flow_id, flow_version, variables; assigned: assignee; rated: the visitor's scale, score and comment; agent_failed: state, run_id, failure {kind, message, http_status} (why the LLM agent run failed, classified, never a secret)",
  }),
})
export type DeskEvent = Static<typeof DeskEvent>

export const Note = t.Object({
  id: Id,
  conversation_id: Id,
  author: Nullable(Person),
  text: t.String(),
  created_at: Timestamp,
})
export type Note = Static<typeof Note>

export const NoteBody = t.Object({ text: t.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false })

export const TimelineItem = t.Union([
  t.Object({ type: t.Literal('message'), at: Timestamp, message: ChatMessage }),
  t.Object({ type: t.Literal('event'), at: Timestamp, event: DeskEvent }),
  t.Object({ type: t.Literal('note'), at: Timestamp, note: Note }),
])
export type TimelineItem = Static<typeof TimelineItem>
export const Timeline = t.Object({ items: t.Array(TimelineItem), has_more: t.Boolean({ description: 'older messages exist: ask again with before' }) })
export const TimelineQuery = t.Object({
  before: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'a message id: the page ends before it' })),
})

export const ReplyBody = t.Object(
  {
    text: t.String({ minLength: 1, maxLength: 4096 }),
    last_seen_message_id: t.Optional(
      Nullable(t.String({ minLength: 1, maxLength: 64, description: 'the newest message the person saw; newer visitor or agent messages answer 409 stale_view' })),
    ),
    force: t.Optional(t.Boolean({ description: 'send even if the view is stale' })),
  },
  { additionalProperties: false },
)
export type ReplyBody = Static<typeof ReplyBody>

export const AttachmentQuery = t.Object({
  filename: t.Optional(
    t.String({ maxLength: 1000, description: "the file's name, shown to the visitor; made safe and given the extension of its real type (photo becomes photo.png)", examples: ['invoice-4711.pdf'] }),
  ),
})

export const StatusBody = t.Object(
  {
    status: t.Union([t.Literal('bot'), t.Literal('handoff'), t.Literal('closed')], {
      description: 'handoff: take over; bot: hand back to the bot; closed: close',
    }),
  },
  { additionalProperties: false },
)

export const AssignBody = t.Object(
  { assignee_id: Nullable(t.String({ minLength: 1, maxLength: 64, description: 'a user of the workspace, "me", or null to unassign' })) },
  { additionalProperties: false },
)

export const ReadBody = t.Object({ message_id: t.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })
export const TypingBody = t.Object({ active: t.Boolean() }, { additionalProperties: false })

export const Context = t.Object({
  conversation: t.Object({
    id: Id,
    status: ConversationStatus,
    channel: Channel,
    created_at: Timestamp,
    chatbot: t.Object({ id: Id, name: t.String() }),
    integration: Nullable(t.Object({ id: t.String(), name: Nullable(t.String()), type: Nullable(t.String()) })),
    assignee: Nullable(Person),
  }),
  contact: t.Object({
    id: Id,
    identity: Nullable(t.Object({ kind: t.Union([t.Literal('email'), t.Literal('phone')]), value: t.String(), verified: t.Boolean() })),
    details: t.Array(t.Object({ key: t.String(), value: t.Union([t.String(), t.Number(), t.Boolean()]), set_at: Nullable(Timestamp) })),
    locale: Nullable(t.String({ description: "the visitor's language, a BCP 47 tag such as pt-BR (the web widget's browser); null when the channel did not say" })),
    created_at: Timestamp,
  }),
  visitor: Nullable(
    t.Object(
      {
        page_url: Nullable(t.String()),
        user_agent: Nullable(t.String()),
        address: Nullable(t.String({ description: "the visitor's IP address at their last connect (behind a trusted proxy, the client it forwarded for)" })),
      },
      { description: 'the page, browser and address the widget was on (web channel)' },
    ),
  ),
  rating: Nullable(ConversationRating),
  earlier_conversations: t.Array(t.Object({ id: Id, status: ConversationStatus, channel: Channel, created_at: Timestamp, last_message_at: Timestamp })),
  flow: Nullable(
    t.Object({
      id: t.String(),
      name: Nullable(t.String()),
      version: Nullable(t.Integer()),
      state: Nullable(t.String({ description: 'where the bot was when the conversation was handed off (or is now)' })),
      variables: t.Record(t.String(), t.Unknown()),
      at_handoff: t.Boolean({ description: 'true when state and variables are those of the last handoff' }),
    }),
  ),
  agent_failure: t.Optional(
    Nullable(
      t.Object(
        { at: Timestamp, state: Nullable(t.String()), kind: t.String(), message: t.String(), http_status: Nullable(t.Integer()) },
        { description: "the conversation's last failed LLM agent run: when, at which state, and why (classified, never a secret); null when none failed" },
      ),
    ),
  ),
})
export type Context = Static<typeof Context>

export const SavedReply = t.Object({ id: Id, shortcut: t.String(), text: t.String(), created_at: Timestamp, updated_at: Nullable(Timestamp) })
export type SavedReply = Static<typeof SavedReply>
export const SavedReplyList = t.Object({ items: t.Array(SavedReply) })
const Shortcut = t.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$', description: 'typed after `/` in the reply box: letters, digits, - and _' })
export const SavedReplyBody = t.Object({ shortcut: Shortcut, text: t.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false })
export const SavedReplyPatch = t.Object({ shortcut: t.Optional(Shortcut), text: t.Optional(t.String({ minLength: 1, maxLength: 4096 })) }, { additionalProperties: false })
export const SavedReplyParams = t.Object({ saved_reply_id: t.String() })

export type { ChatMessage }
