import { Type } from '@sinclair/typebox'
import { type Static, t } from 'elysia'
import { ChatMessage } from '../../conversations/model.ts'
import { Id, PageQuery, Timestamp, listOf } from '../../http/common-model.ts'
import { ConversationStatus } from '../../protocol/widget-protocol.ts'

// ---- inbound: POST .../integrations/rest-api/messages ----

export const InboundMessage = t.Object(
  {
    user_id: t.String({
      minLength: 1,
      maxLength: 256,
      pattern: '^[^\\s\\u0000-\\u001f\\u007f]([^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f])?$',
      error: 'must be 1 to 256 characters, without control characters or spaces around it',
      description:
        'who writes: an e-mail address or phone number (normalised as identify() does, so it is the same contact as in the widget), or your own id for the user, kept as sent',
      examples: ['user-4711', 'ada@lovelace.dev', '+44 20 7946 0958'],
    }),
    text: t.Optional(t.String({ minLength: 1, maxLength: 4096, description: 'the message; send text, reply or attachment' })),
    reply: t.Optional(
      t.Object(
        {
          reply_to: t.Union([t.Literal('button'), t.Literal('row')]),
          id: t.String({ minLength: 1, maxLength: 256, description: 'the id of the button or list row picked' }),
          title: t.String({ maxLength: 256, description: 'its title, as the user saw it' }),
        },
        { additionalProperties: false, description: 'the pick of a button or list row the bot offered; send text, reply or attachment' },
      ),
    ),
    attachment: t.Optional(
      t.Object(
        {
          filename: t.String({ minLength: 1, maxLength: 1000, description: "the file's name, shown to agents; made safe and given the extension of its real type" }),
          data: t.String({ minLength: 1, description: "the file's bytes in base64 (RFC 4648, with or without padding)" }),
        },
        {
          additionalProperties: false,
          description:
            'a file the user sent: a PNG, JPEG, GIF or WebP picture or a PDF, told by its bytes (415 attachment_type_refused otherwise), at most PARLEY_ATTACHMENT_MAX_BYTES (413 attachment_too_large); send text, reply or attachment',
        },
      ),
    ),
    client_id: t.Optional(
      t.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        error: 'must be 1 to 64 characters of A-Z a-z 0-9 _ -',
        description: 'your id for this message: a retry with the same client_id (and user_id) is not stored again and gets the first answer',
      }),
    ),
    contact_details: t.Optional(
      t.Record(
        t.String(),
        t.Union([t.String({ maxLength: 300 }), t.Number(), t.Boolean()], { error: 'must be a string of at most 300 characters, a number or a boolean' }),
        {
        maxProperties: 13,
        error: 'must be an object of at most 13 fields',
        description: 'merged into the contact: keys become snake_case (cut to 64 characters), at most 13 fields, values of at most 300 characters',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { user_id: 'user-4711', text: 'What does the pro plan cost?', client_id: 'm-0001', contact_details: { plan: 'free' } },
      { user_id: 'user-4711', reply: { reply_to: 'button', id: 'sales', title: 'Sales' }, client_id: 'm-0002' },
      { user_id: 'user-4711', attachment: { filename: 'dot.png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC' }, client_id: 'm-0003' },
    ],
  },
)
export type InboundMessage = Static<typeof InboundMessage>

export const InboundAccepted = t.Object(
  {
    conversation_id: Id,
    contact: t.Object({ id: Id, external_id: t.String({ description: 'the normalised e-mail or phone, or rest-api: and your own id' }) }),
    message: ChatMessage,
  },
  { description: "The user's message as stored; the bot's answers follow by webhook." },
)
export type InboundAccepted = Static<typeof InboundAccepted>

// ---- outbound: what webhook_url receives ----

const EventContact = Type.Object({
  id: Type.String(),
  external_id: Type.Union([Type.String(), Type.Null()]),
  user_id: Type.Union([Type.String(), Type.Null()], { description: 'the user_id you sent (e-mail and phone normalised)' }),
})
const EventSubject = {
  chatbot_id: Type.String(),
  integration_id: Type.String(),
  conversation_id: Type.String(),
  contact: EventContact,
}

export const WebhookEvent = Type.Union([
  Type.Object(
    {
      type: Type.Literal('message.created'),
      timestamp: Type.String({ description: 'when the message was written' }),
      data: Type.Object({ ...EventSubject, message: ChatMessage }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('conversation.status_changed'),
      timestamp: Type.String({ description: 'when the status changed' }),
      data: Type.Object({ ...EventSubject, status: ConversationStatus, previous_status: ConversationStatus }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
])
export type WebhookEvent = Static<typeof WebhookEvent>

// ---- GET .../integrations/rest-api/deliveries ----

const DeliveryStatus = t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')])

export const Delivery = t.Object({
  id: t.String({ description: 'the webhook-id header: the same on every attempt', examples: ['evt_01JD3QB8XK2M4N6P8R0S2T4V6W'] }),
  type: t.String({ examples: ['message.created'] }),
  conversation_id: t.String(),
  status: DeliveryStatus,
  attempts: t.Integer({ minimum: 0 }),
  next_attempt_at: t.Union([Timestamp, t.Null()], {
    description: 'when a pending delivery is tried next; null once it is finished, and while it waits for an earlier delivery of its conversation',
  }),
  last_attempt_at: t.Union([Timestamp, t.Null()]),
  last_status_code: t.Union([t.Integer(), t.Null()], { description: "the receiver's HTTP status at the last attempt" }),
  last_error: t.Union([t.String(), t.Null()], { description: 'why the last attempt did not deliver it' }),
  url: t.String({ description: 'where the last attempt went' }),
  created_at: Timestamp,
  finished_at: t.Union([Timestamp, t.Null()], { description: 'when it was delivered or given up' }),
  payload: t.Unknown({ description: 'the body as sent (signed as sent)' }),
})
export type Delivery = Static<typeof Delivery>

export const DeliveryList = listOf(Delivery)
export const DeliveryQuery = t.Composite([PageQuery, t.Object({ status: t.Optional(DeliveryStatus) })])
