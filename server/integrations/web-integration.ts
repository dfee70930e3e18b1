import { isSupportedCountry } from 'libphonenumber-js'
import type { FieldError } from '../http/api-error.ts'
import { WIDGET_CONFIG_DEFAULTS, type WidgetConfigValues } from '../protocol/widget-config-defaults.ts'
import type { WidgetConfigInput, WidgetConfigPatch } from '../protocol/widget-config.ts'
import { randomToken } from '../support/random-token.ts'
import { normaliseAllowedDomains } from './allowed-domains.ts'
import { type IntegrationKind, throwIfInvalid } from './integration-kind.ts'
import { maskOptional } from './mask-secret.ts'
import type { IntegrationRow } from './model.ts'
import type { CreateWebIntegration, UpdateWebIntegration, WebIntegration } from './web-model.ts'

/** decisions.md: `wk_` and at least 22 base62 characters from a CSPRNG; 24 give 142 bits. */
export const newWidgetKey = () => `wk_${randomToken(24)}`

/** What a web integration keeps in its `config` column. */
export interface WebConfig {
  allowed_domains: string[]
  greeting_message: string | null
  widget_config: WidgetConfigValues
  default_country: string | null
}

/**
 * A stored widget_config in today's shape: a key added since gets its default, a key dropped
 * since is left out (responses are validated, so an unknown key would fail them).
 */
export function completeWidgetConfig(stored: unknown): WidgetConfigValues {
  const values = (stored ?? {}) as Record<string, unknown>
  return Object.fromEntries(
    Object.entries(WIDGET_CONFIG_DEFAULTS).map(([key, fallback]) => [key, key in values ? values[key] : fallback]),
  ) as unknown as WidgetConfigValues
}

export function webKind(makeKey: () => string = newWidgetKey): IntegrationKind<CreateWebIntegration, UpdateWebIntegration, WebIntegration> {
  return {
    type: 'web',

    create(input) {
      const errors: FieldError[] = []
      const allowedDomains = normaliseAllowedDomains(input.allowed_domains ?? [], errors)
      const defaultCountry = country(input.default_country, errors)
      throwIfInvalid(errors)
      const config: WebConfig = {
        allowed_domains: allowedDomains,
        greeting_message: input.greeting_message ?? null,
        widget_config: withOverrides(WIDGET_CONFIG_DEFAULTS, input.widget_config ?? {}),
        default_country: defaultCountry,
      }
      const secrets = input.identity_secret === undefined ? {} : { identity_secret: input.identity_secret }
      return { settings: { name: input.name, is_active: true, config: { ...config }, secrets, public_key: makeKey() }, revealed: {} }
    },

    update(current, input) {
      const errors: FieldError[] = []
      const stored = current.config as unknown as WebConfig
      const config: WebConfig = {
        allowed_domains:
          input.allowed_domains === undefined ? stored.allowed_domains : normaliseAllowedDomains(input.allowed_domains, errors),
        greeting_message: input.greeting_message === undefined ? stored.greeting_message : input.greeting_message,
        widget_config: withOverrides(completeWidgetConfig(stored.widget_config), input.widget_config ?? {}),
        default_country: input.default_country === undefined ? stored.default_country : country(input.default_country, errors),
      }
      throwIfInvalid(errors)
      const secrets = { ...current.secrets }
      if (input.identity_secret === null) delete secrets.identity_secret
      else if (input.identity_secret !== undefined) secrets.identity_secret = input.identity_secret
      return { settings: { ...current, config: { ...config }, secrets }, revealed: {} }
    },

    render(row: IntegrationRow): WebIntegration {
      const config = row.config as unknown as WebConfig
      return {
        id: row.id,
        chatbot_id: row.chatbot_id,
        type: 'web',
        name: row.name,
        is_active: row.is_active,
        greeting_message: config.greeting_message,
        config: {
          widget_key: row.public_key ?? '',
          allowed_domains: config.allowed_domains,
          widget_config: completeWidgetConfig(config.widget_config),
          identity_secret: maskOptional(row.secrets.identity_secret),
          default_country: config.default_country,
        },
        created_at: row.created_at,
        updated_at: row.updated_at,
      }
    },
  }
}

/** Key by key: a value replaces the current one, null restores the default, absent keeps it. */
function withOverrides(current: WidgetConfigValues, overrides: WidgetConfigInput | WidgetConfigPatch): WidgetConfigValues {
  const next: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    next[key] = value === null ? WIDGET_CONFIG_DEFAULTS[key as keyof WidgetConfigValues] : value
  }
  return next as unknown as WidgetConfigValues
}

function country(code: string | null | undefined, errors: FieldError[]): string | null {
  if (code === undefined || code === null) return null
  const upper = code.toUpperCase()
  if (isSupportedCountry(upper)) return upper
  errors.push({ path: '/default_country', message: `"${code}" is not a country code that phone numbers are known for` })
  return null
}
