import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'
import { WIDGET_CONFIG_DEFAULTS } from '../protocol/widget-config-defaults.ts'
import { WidgetConfig, WidgetConfigInput, WidgetConfigPatch } from '../protocol/widget-config.ts'
import { EXAMPLE_IDS, IntegrationName, MaskedSecret, recordHead, recordTail } from './model.ts'

const AllowedDomains = t.Array(t.String({ minLength: 1, maxLength: 270 }), {
  maxItems: 100,
  description:
    'host names allowed to embed the widget, checked against the Origin of its socket: `example.com`, `*.example.com` ' +
    '(its subdomains), optionally with a port (`localhost:3000`); no scheme or path. Empty: every domain',
  examples: [['example.com', '*.example.com']],
})
const GreetingMessage = t.String({ minLength: 1, maxLength: 1000, examples: ['Hi! How can we help?'] })
const IdentitySecret = t.String({
  minLength: 16,
  maxLength: 256,
  description: 'write-only; when set, identify(user_id, {hash}) must carry hex(HMAC-SHA256(identity_secret, user_id))',
})
const DefaultCountry = t.String({
  pattern: '^[A-Za-z]{2}$',
  error: 'must be a two-letter ISO 3166-1 country code such as DE or US',
  description: 'ISO 3166-1 alpha-2 country used to read phone numbers written without a country code',
  examples: ['DE'],
})

export const CreateWebIntegration = t.Object(
  {
    name: IntegrationName,
    allowed_domains: t.Optional(AllowedDomains),
    greeting_message: t.Optional(GreetingMessage),
    widget_config: t.Optional(WidgetConfigInput),
    identity_secret: t.Optional(IdentitySecret),
    default_country: t.Optional(DefaultCountry),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Website',
        allowed_domains: ['example.com', '*.example.com'],
        greeting_message: 'Hi! How can we help?',
        widget_config: { primary_color: '#0a7d3b', position: 'bottom-left', allowed_paths: ['/contact', '/shop/*'] },
      },
    ],
  },
)
export type CreateWebIntegration = Static<typeof CreateWebIntegration>

export const UpdateWebIntegration = t.Object(
  {
    name: t.Optional(IntegrationName),
    is_active: t.Optional(t.Boolean()),
    allowed_domains: t.Optional(AllowedDomains),
    greeting_message: t.Optional(t.Union([GreetingMessage, t.Null()])),
    widget_config: t.Optional(WidgetConfigPatch),
    identity_secret: t.Optional(t.Union([IdentitySecret, t.Null()])),
    default_country: t.Optional(t.Union([DefaultCountry, t.Null()])),
  },
  {
    additionalProperties: false,
    description: 'Partial; widget_config is merged key by key and null restores a default',
    examples: [{ widget_config: { primary_color: '#112233', width: null } }, { is_active: false }],
  },
)
export type UpdateWebIntegration = Static<typeof UpdateWebIntegration>

export const WebIntegration = t.Object(
  {
    id: recordHead.id,
    chatbot_id: recordHead.chatbot_id,
    type: t.Literal('web'),
    name: recordHead.name,
    is_active: recordHead.is_active,
    greeting_message: t.Union([t.String(), t.Null()]),
    config: t.Object({
      widget_key: t.String({ pattern: '^wk_[0-9A-Za-z]{22,}$', description: 'the data-widget-key of the embed script' }),
      allowed_domains: t.Array(t.String()),
      widget_config: WidgetConfig,
      identity_secret: t.Union([MaskedSecret, t.Null()]),
      default_country: t.Union([t.String(), t.Null()]),
    }),
    created_at: Timestamp,
    updated_at: recordTail.updated_at,
  },
  {
    examples: [
      {
        id: EXAMPLE_IDS.id,
        chatbot_id: EXAMPLE_IDS.chatbot_id,
        type: 'web',
        name: 'Website',
        is_active: true,
        greeting_message: 'Hi! How can we help?',
        config: {
          widget_key: 'wk_4fQm8ZtR2xLp9VbN6cYh1KsD',
          allowed_domains: ['example.com', '*.example.com'],
          widget_config: { ...WIDGET_CONFIG_DEFAULTS, primary_color: '#0a7d3b' },
          identity_secret: null,
          default_country: null,
        },
        created_at: EXAMPLE_IDS.created_at,
        updated_at: null,
      },
    ],
  },
)
export type WebIntegration = Static<typeof WebIntegration>
