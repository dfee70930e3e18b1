import { type Static, t } from 'elysia'
import { Id, listOf, PageQuery, Timestamp } from '../../http/common-model.ts'

// ---- POST /hooks/chatapp/{integration_id}: the provider's webhook ----

export const WebhookPayload = t.Unknown({
  description:
    'The provider\'s webhook body as it sends it: `{object: "whatsapp_business_account", entry: [{id, changes: [{field: "messages", value: {metadata: {phone_number_id}, contacts, messages | statuses}}]}]}`. Fields Parley does not use are ignored.',
})

export const WebhookSummary = t.Object(
  {
    messages: t.Object({
      stored: t.Integer({ minimum: 0, description: 'messages stored (and answered by the bot)' }),
      duplicates: t.Integer({ minimum: 0, description: 'messages already stored under the same provider message id (a retried webhook)' }),
    }),
    statuses: t.Object({
      recorded: t.Integer({ minimum: 0, description: 'status reports stored' }),
      duplicates: t.Integer({ minimum: 0, description: 'reports already stored' }),
      unmatched: t.Integer({ minimum: 0, description: 'reports stored for a message Parley has no delivery for (yet)' }),
    }),
    ignored: t.Array(t.Object({ path: t.String({ description: 'JSON Pointer into the body' }), reason: t.String() }), {
      description: 'parts of the body that were acknowledged but not used, and why',
    }),
  },
  {
    description: 'What Parley made of the webhook. The provider only needs the 200; this is for people reading it.',
    examples: [{ messages: { stored: 1, duplicates: 0 }, statuses: { recorded: 0, duplicates: 0, unmatched: 0 }, ignored: [] }],
  },
)
export type WebhookSummary = Static<typeof WebhookSummary>

// ---- GET .../integrations/chatapp/deliveries ----

const SendStatus = t.Union([t.Literal('pending'), t.Literal('accepted'), t.Literal('failed')], {
  description: 'pending: not yet accepted by the provider (it may be waiting for a retry); accepted: the provider took it; failed: given up',
})
export type SendStatus = Static<typeof SendStatus>

export const ProviderStatus = t.Union([t.Literal('sent'), t.Literal('delivered'), t.Literal('read'), t.Literal('played'), t.Literal('failed')])
export type ProviderStatus = Static<typeof ProviderStatus>

const ProviderError = t.Object({
  code: t.Union([t.Integer(), t.Null()]),
  title: t.Union([t.String(), t.Null()]),
  message: t.Union([t.String(), t.Null()]),
  details: t.Union([t.String(), t.Null()]),
})
export type ProviderError = Static<typeof ProviderError>

export const ChatappDelivery = t.Object({
  id: t.String({ examples: ['dlv_01JD3QB8XK2M4N6P8R0S2T4V6W'] }),
  type: t.String({ description: 'the Cloud API message type: text, image, video, audio, document, interactive.button, interactive.list, interactive.flow', examples: ['interactive.button'] }),
  conversation_id: t.String(),
  message_id: t.Union([t.String(), t.Null()], { description: 'the Parley message it carries' }),
  part: t.Union([t.Integer({ minimum: 0 }), t.Null()], { description: 'its place among the provider messages of one Parley message (0 for the first)' }),
  status: SendStatus,
  attempts: t.Integer({ minimum: 0 }),
  next_attempt_at: t.Union([Timestamp, t.Null()]),
  last_attempt_at: t.Union([Timestamp, t.Null()]),
  last_status_code: t.Union([t.Integer(), t.Null()], { description: "the provider API's HTTP status at the last attempt" }),
  last_error: t.Union([t.String(), t.Null()], { description: "why it was not accepted: the provider's error code and message" }),
  provider_message_id: t.Union([t.String(), t.Null()], { description: 'the wamid the provider gave it' }),
  provider_status: t.Union([ProviderStatus, t.Null()], { description: "the furthest the provider's reports got: sent, delivered, read, played, or failed" }),
  provider_statuses: t.Array(t.Object({ status: t.String(), at: Timestamp, errors: t.Union([t.Array(ProviderError), t.Null()]) }), {
    description: "the provider's reports, oldest first",
  }),
  adaptation: t.Union([t.String(), t.Null()], { description: "how the content was changed to fit the provider's limits" }),
  note: t.Union([t.String(), t.Null()], { description: 'how it was taken, when a fallback was needed (a refused flow message sent as text)' }),
  created_at: Timestamp,
  finished_at: t.Union([Timestamp, t.Null()]),
  payload: t.Unknown({ description: 'the Cloud API request body as sent' }),
})
export type ChatappDelivery = Static<typeof ChatappDelivery>

export const ChatappDeliveryList = listOf(ChatappDelivery)
export const ChatappDeliveryQuery = t.Composite([
  PageQuery,
  t.Object({ status: t.Optional(SendStatus), conversation_id: t.Optional(t.String({ minLength: 1 })) }),
])

// ---- GET .../integrations/chatapp/inbound ----

export const ChatappInbound = t.Object({
  provider_message_id: t.String({ description: 'the wamid: the key that makes a retried webhook a no-op', examples: ['wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA='] }),
  conversation_id: Id,
  message_id: Id,
  type: t.String({ description: 'the provider message type (text, interactive, image, location, reaction, ...)' }),
  from: t.String({ description: 'the sender, E.164' }),
  profile_name: t.Union([t.String(), t.Null()]),
  sent_at: t.Union([Timestamp, t.Null()], { description: "the provider's timestamp" }),
  received_at: Timestamp,
  form_response: t.Union([t.Record(t.String(), t.Unknown()), t.Null()], { description: 'a completed meta flow: the fields it returned (response_json)' }),
  payload: t.Unknown({ description: "the provider's message object as received" }),
})
export type ChatappInbound = Static<typeof ChatappInbound>

export const ChatappInboundList = listOf(ChatappInbound)
export const ChatappInboundQuery = t.Composite([PageQuery, t.Object({ conversation_id: t.Optional(t.String({ minLength: 1 })) })])
