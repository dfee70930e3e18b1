import type { FieldError } from '../http/api-error.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { type IntegrationKind, throwIfInvalid } from './integration-kind.ts'
import { maskSecret } from './mask-secret.ts'
import type { IntegrationRow } from './model.ts'
import type {
  CreateRestApiIntegration,
  RestApiIntegration,
  UpdateRestApiIntegration,
} from './rest-api-model.ts'

export const DEFAULT_REST_API_NAME = 'REST API'

/** Standard Webhooks: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`
}

export function restApiKind(outbound: OutboundUrlPolicy): IntegrationKind<CreateRestApiIntegration, UpdateRestApiIntegration, RestApiIntegration, { signing_secret: string }> {
  function webhookUrl(value: string): string {
    const errors: FieldError[] = []
    if (/[\s\u0000-\u001f\u007f]/.test(value)) {
      errors.push({ path: '/webhook_url', message: 'must not contain spaces or control characters' })
    } else {
      const checked = outbound.checkOutboundUrl(value)
      if (!checked.ok) errors.push({ path: '/webhook_url', message: checked.reason })
    }
    throwIfInvalid(errors)
    return value
  }

  return {
    type: 'rest-api',

    create(input) {
      const signingSecret = newSigningSecret()
      return {
        settings: {
          name: input.name ?? DEFAULT_REST_API_NAME,
          is_active: true,
          config: { webhook_url: webhookUrl(input.webhook_url) },
          secrets: { signing_secret: signingSecret },
          public_key: null,
        },
        revealed: { signing_secret: signingSecret },
      }
    },

    update(current, input) {
      const config = input.webhook_url === undefined ? current.config : { ...current.config, webhook_url: webhookUrl(input.webhook_url) }
      if (!input.rotate_secret) return { settings: { ...current, config }, revealed: {} }
      const signingSecret = newSigningSecret()
      return {
        settings: { ...current, config, secrets: { ...current.secrets, signing_secret: signingSecret } },
        revealed: { signing_secret: signingSecret },
      }
    },

    render(row: IntegrationRow): RestApiIntegration {
      return {
        id: row.id,
        chatbot_id: row.chatbot_id,
        type: 'rest-api',
        name: row.name,
        is_active: row.is_active,
        config: { webhook_url: String(row.config.webhook_url), signing_secret: maskSecret(String(row.secrets.signing_secret)) },
        created_at: row.created_at,
        updated_at: row.updated_at,
      }
    },
  }
}
