import { type Static, t } from 'elysia'
import { EXAMPLE_IDS, IntegrationName, MaskedSecret, recordHead, recordTail } from './model.ts'

const WebhookUrl = t.String({
  minLength: 1,
  maxLength: 2048,
  description: 'absolute http(s) URL Parley POSTs outbound messages to; private and local addresses are refused',
  examples: ['https://example.com/parley-webhook'],
})
const SigningSecret = t.String({
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  description: 'Standard Webhooks signing secret: shown only in this response, masked afterwards',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5K8ZgJxSm3s='],
})

export const CreateRestApiIntegration = t.Object(
  { webhook_url: WebhookUrl, name: t.Optional(IntegrationName) },
  { additionalProperties: false, examples: [{ webhook_url: 'https://example.com/parley-webhook', name: 'Back office' }] },
)
export type CreateRestApiIntegration = Static<typeof CreateRestApiIntegration>

export const UpdateRestApiIntegration = t.Object(
  {
    name: t.Optional(IntegrationName),
    is_active: t.Optional(t.Boolean()),
    webhook_url: t.Optional(WebhookUrl),
    rotate_secret: t.Optional(t.Boolean({ description: 'true: replace signing_secret; the response shows the new one once' })),
  },
  {
    additionalProperties: false,
    description: 'Partial: only the fields sent change',
    examples: [{ webhook_url: 'https://example.com/new-webhook' }, { rotate_secret: true }],
  },
)
export type UpdateRestApiIntegration = Static<typeof UpdateRestApiIntegration>

const properties = {
  id: recordHead.id,
  chatbot_id: recordHead.chatbot_id,
  type: t.Literal('rest-api'),
  name: recordHead.name,
  is_active: recordHead.is_active,
  config: t.Object({ webhook_url: t.String(), signing_secret: MaskedSecret }),
  ...recordTail,
}

const example = {
  id: EXAMPLE_IDS.id,
  chatbot_id: EXAMPLE_IDS.chatbot_id,
  type: 'rest-api',
  name: 'Back office',
  is_active: true,
  config: { webhook_url: 'https://example.com/parley-webhook', signing_secret: '••••m3s=' },
  created_at: EXAMPLE_IDS.created_at,
  updated_at: null,
}
const secretExample = { signing_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5K8ZgJxSm3s=' }

export const RestApiIntegration = t.Object(properties, { examples: [example] })
export type RestApiIntegration = Static<typeof RestApiIntegration>

/** The create answer: the record and, this once, the signing secret itself. */
export const CreatedRestApiIntegration = t.Object(
  { ...properties, signing_secret: SigningSecret },
  { examples: [{ ...example, ...secretExample }] },
)
export type CreatedRestApiIntegration = Static<typeof CreatedRestApiIntegration>

/** The PATCH answer: `signing_secret` appears only when `rotate_secret` made a new one. */
export const UpdatedRestApiIntegration = t.Object(
  { ...properties, signing_secret: t.Optional(SigningSecret) },
  { examples: [example, { ...example, ...secretExample, updated_at: '2026-01-16T11:00:00.000Z' }] },
)
export type UpdatedRestApiIntegration = Static<typeof UpdatedRestApiIntegration>
