import { type Static, t } from 'elysia'
import { EXAMPLE_IDS, IntegrationName, MaskedSecret, recordHead, recordTail } from './model.ts'
import { Timestamp } from '../http/common-model.ts'

// Used in the provider's API paths (/{phone_number_id}/messages), so only URL-safe characters.
const PhoneNumberId = t.String({
  pattern: '^[A-Za-z0-9._-]{1,64}$',
  error: 'must be 1 to 64 letters, digits, dots, underscores or hyphens',
  description: 'business phone number id at the platform provider',
  examples: ['106540352242922'],
})
const Token = (description: string, maxLength: number) =>
  t.String({
    pattern: `^[!-~]{1,${maxLength}}$`,
    error: `must be 1 to ${maxLength} visible ASCII characters, without spaces`,
    description: `${description}; write-only`,
  })
const AccessToken = Token('permanent access token from the provider', 4096)
const VerifyToken = Token("the token you set in the provider's webhook settings", 256)
const AppSecret = Token("the provider app's secret, to check the signature of its payloads", 256)

export const CreateChatappIntegration = t.Object(
  {
    phone_number_id: PhoneNumberId,
    access_token: AccessToken,
    verify_token: VerifyToken,
    app_secret: t.Optional(AppSecret),
    name: t.Optional(IntegrationName),
  },
  {
    additionalProperties: false,
    examples: [{ phone_number_id: '106540352242922', access_token: 'EAAGm0PX4ZCpsBA...', verify_token: 'my-verify-token' }],
  },
)
export type CreateChatappIntegration = Static<typeof CreateChatappIntegration>

export const UpdateChatappIntegration = t.Object(
  {
    name: t.Optional(IntegrationName),
    is_active: t.Optional(t.Boolean()),
    phone_number_id: t.Optional(PhoneNumberId),
    access_token: t.Optional(AccessToken),
    verify_token: t.Optional(VerifyToken),
    app_secret: t.Optional(t.Union([AppSecret, t.Null()])),
  },
  {
    additionalProperties: false,
    description: 'Partial: only the fields sent change; app_secret null removes it',
    examples: [{ access_token: 'EAAGnewtoken...' }, { app_secret: null }],
  },
)
export type UpdateChatappIntegration = Static<typeof UpdateChatappIntegration>

export const ChatappIntegration = t.Object(
  {
    id: recordHead.id,
    chatbot_id: recordHead.chatbot_id,
    type: t.Literal('chatapp'),
    name: recordHead.name,
    is_active: recordHead.is_active,
    config: t.Object({
      phone_number_id: t.String(),
      access_token: MaskedSecret,
      verify_token: MaskedSecret,
      app_secret: t.Union([MaskedSecret, t.Null()]),
      callback_url: t.String({ description: "paste into the provider's webhook settings, with verify_token" }),
    }),
    ...recordTail,
  },
  {
    examples: [
      {
        id: EXAMPLE_IDS.id,
        chatbot_id: EXAMPLE_IDS.chatbot_id,
        type: 'chatapp',
        name: 'Messaging app',
        is_active: true,
        config: {
          phone_number_id: '106540352242922',
          access_token: '••••ZD9x',
          verify_token: '••••',
          app_secret: null,
          callback_url: `https://parley.example.com/hooks/chatapp/${EXAMPLE_IDS.id}`,
        },
        created_at: EXAMPLE_IDS.created_at,
        updated_at: null,
      },
    ],
  },
)
export type ChatappIntegration = Static<typeof ChatappIntegration>

export const ChatappHandshakeRecord = t.Object(
  {
    verified_at: t.Union([Timestamp, t.Null()], { description: "when the provider's verify handshake on callback_url last succeeded; null: never yet" }),
    refused_at: t.Union([Timestamp, t.Null()], {
      description: 'when one was last refused (a wrong verify_token, an inactive integration…), since Parley started (refusals are not stored); a refusal never clears verified_at',
    }),
    refusal: t.Union([t.String(), t.Null()], { description: 'why that one was refused' }),
  },
  {
    description: "The provider's verify handshakes: saving its webhook settings makes it call GET callback_url.",
    examples: [{ verified_at: '2026-01-15T09:31:12.000Z', refused_at: '2026-01-15T09:30:40.000Z', refusal: 'hub.verify_token does not match the verify_token of this integration' }],
  },
)
