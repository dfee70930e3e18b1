import { type IntegrationKind } from './integration-kind.ts'
import { maskOptional, maskSecret } from './mask-secret.ts'
import type { IntegrationRow } from './model.ts'
import type { ChatappIntegration, CreateChatappIntegration, UpdateChatappIntegration } from './chatapp-model.ts'

export const DEFAULT_CHATAPP_NAME = 'Messaging app'

/** Where the provider sends its verify handshake and, later, its messages. */
export const chatappCallbackUrl = (publicUrl: string, integrationId: string) => `${publicUrl}/hooks/chatapp/${integrationId}`

export function chatappKind(publicUrl: string): IntegrationKind<CreateChatappIntegration, UpdateChatappIntegration, ChatappIntegration> {
  return {
    type: 'chatapp',

    create(input) {
      const secrets: Record<string, string> = { access_token: input.access_token, verify_token: input.verify_token }
      if (input.app_secret !== undefined) secrets.app_secret = input.app_secret
      return {
        settings: {
          name: input.name ?? DEFAULT_CHATAPP_NAME,
          is_active: true,
          config: { phone_number_id: input.phone_number_id },
          secrets,
          public_key: null,
        },
        revealed: {},
      }
    },

    update(current, input) {
      const config = { ...current.config, phone_number_id: input.phone_number_id ?? current.config.phone_number_id }
      const secrets = { ...current.secrets }
      if (input.access_token !== undefined) secrets.access_token = input.access_token
      if (input.verify_token !== undefined) secrets.verify_token = input.verify_token
      if (input.app_secret === null) delete secrets.app_secret
      else if (input.app_secret !== undefined) secrets.app_secret = input.app_secret
      return { settings: { ...current, config, secrets }, revealed: {} }
    },

    render(row: IntegrationRow): ChatappIntegration {
      return {
        id: row.id,
        chatbot_id: row.chatbot_id,
        type: 'chatapp',
        name: row.name,
        is_active: row.is_active,
        config: {
          phone_number_id: String(row.config.phone_number_id),
          access_token: maskSecret(String(row.secrets.access_token)),
          verify_token: maskSecret(String(row.secrets.verify_token)),
          app_secret: maskOptional(row.secrets.app_secret),
          callback_url: chatappCallbackUrl(publicUrl, row.id),
        },
        created_at: row.created_at,
        updated_at: row.updated_at,
      }
    },
  }
}
