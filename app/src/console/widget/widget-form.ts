import {
  AVATAR_ICONS,
  AVATAR_URL_MAX_LENGTH,
  AVATAR_URL_PATTERN,
  HEX_COLOR,
  PATH_PATTERN,
  POSITIONS,
  WIDGET_CONFIG_DEFAULTS,
  WIDGET_LIMITS,
} from '../../../../server/protocol/widget-config-defaults.ts'
import { LOCALE_NAMES, LOCALE_SETTINGS } from '../../../../server/protocol/widget-locales.ts'

/**
 * The web widget's settings as a form: each field with the spec's limits, checked as it is
 * typed with the same rules the server applies (server/protocol/widget-config.ts), so a
 * mistake shows before saving and a save that passes here passes there.
 */
export type FieldKind = 'text' | 'color' | 'optional-color' | 'number' | 'choice' | 'paths' | 'domains' | 'secret' | 'country' | 'greeting' | 'url'

export interface FieldSpec {
  key: string
  label: string
  kind: FieldKind
  /** What the form says about the limits, beside the field. */
  limit: string
  choices?: readonly string[]
  /** How the form names a choice, when not by its value. */
  choiceLabels?: Readonly<Record<string, string>>
  min?: number
  max?: number
  maxLength?: number
  /** In widget_config (the rest are the integration's own fields). */
  inWidgetConfig: boolean
}

export const WIDGET_FIELDS: FieldSpec[] = [
  { key: 'bot_display_name', label: 'Bot name', kind: 'text', limit: '1 to 60 characters', maxLength: 60, inWidgetConfig: true },
  { key: 'bubble_text', label: 'Launcher text', kind: 'text', limit: '1 to 60 characters', maxLength: 60, inWidgetConfig: true },
  { key: 'primary_color', label: 'Primary colour', kind: 'color', limit: 'hex, #0066ff or #06f', inWidgetConfig: true },
  { key: 'secondary_color', label: 'Secondary colour', kind: 'color', limit: 'hex, #f0f4ff or #eef', inWidgetConfig: true },
  { key: 'background_color', label: 'Background colour', kind: 'optional-color', limit: 'hex, or empty for the default', inWidgetConfig: true },
  { key: 'bot_avatar_icon', label: 'Avatar icon', kind: 'choice', choices: AVATAR_ICONS, limit: 'a built-in icon, or none', inWidgetConfig: true },
  { key: 'bot_avatar_url', label: 'Avatar image', kind: 'url', limit: `an https:// image address, at most ${AVATAR_URL_MAX_LENGTH} characters; empty for none`, maxLength: AVATAR_URL_MAX_LENGTH, inWidgetConfig: true },
  { key: 'font_size', label: 'Font size', kind: 'number', min: WIDGET_LIMITS.font_size.min, max: WIDGET_LIMITS.font_size.max, limit: `${WIDGET_LIMITS.font_size.min} to ${WIDGET_LIMITS.font_size.max} px`, inWidgetConfig: true },
  { key: 'position', label: 'Position', kind: 'choice', choices: POSITIONS, limit: 'a corner of the page', inWidgetConfig: true },
  { key: 'width', label: 'Width', kind: 'number', min: WIDGET_LIMITS.width.min, max: WIDGET_LIMITS.width.max, limit: `${WIDGET_LIMITS.width.min} to ${WIDGET_LIMITS.width.max} px`, inWidgetConfig: true },
  { key: 'height', label: 'Height', kind: 'number', min: WIDGET_LIMITS.height.min, max: WIDGET_LIMITS.height.max, limit: `${WIDGET_LIMITS.height.min} to ${WIDGET_LIMITS.height.max} px`, inWidgetConfig: true },
  { key: 'allowed_paths', label: 'Pages it shows on', kind: 'paths', limit: 'one path a line: /contact, or /shop/* for a whole section; at most 100; empty: every page', inWidgetConfig: true },
  { key: 'rating', label: 'Rating at the end', kind: 'choice', choices: ['', 'thumbs', 'stars'], limit: 'thumbs, 1 to 5 stars, or none', inWidgetConfig: true },
  {
    key: 'locale',
    label: 'Language',
    kind: 'choice',
    choices: LOCALE_SETTINGS,
    choiceLabels: { auto: "Auto: the visitor's browser", ...Object.fromEntries(Object.entries(LOCALE_NAMES).map(([tag, name]) => [tag, `${name} (${tag})`])) },
    limit: "every text the widget shows; auto picks the visitor's browser language, English when none fits",
    inWidgetConfig: true,
  },
  { key: 'allowed_domains', label: 'Sites that may embed it', kind: 'domains', limit: 'one host a line: example.com, *.example.com, localhost:3000; at most 100; empty: every site', inWidgetConfig: false },
  { key: 'greeting_message', label: 'Greeting', kind: 'greeting', limit: 'up to 1000 characters; empty for none', maxLength: 1000, inWidgetConfig: false },
  { key: 'identity_secret', label: 'Identity secret', kind: 'secret', limit: '16 to 256 characters; write-only. Empty keeps the current one', maxLength: 256, inWidgetConfig: false },
  { key: 'default_country', label: 'Default country', kind: 'country', limit: 'two letters (DE, US) for phone numbers without a country code; empty for none', inWidgetConfig: false },
]

/** The form's text for each field, as typed. */
export type FormValues = Record<string, string>

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')

/** Why a typed value is refused, or null when it passes. */
export function checkField(spec: FieldSpec, text: string): string | null {
  const value = text.trim()
  switch (spec.kind) {
    case 'text':
      if (value.length === 0) return 'must not be empty'
      return value.length > (spec.maxLength ?? Infinity) ? `at most ${spec.maxLength} characters (now ${value.length})` : null
    case 'color':
      return HEX_COLOR.test(value) ? null : 'must be a hex colour like #0066ff or #06f'
    case 'optional-color':
      return value === '' || HEX_COLOR.test(value) ? null : 'must be a hex colour like #0066ff, or empty'
    case 'url':
      if (value === '') return null
      if (value.length > AVATAR_URL_MAX_LENGTH) return `at most ${AVATAR_URL_MAX_LENGTH} characters`
      return AVATAR_URL_PATTERN.test(value) ? null : 'must be an https:// address of an image'
    case 'number': {
      if (!/^\d+(\.\d+)?$/.test(value)) return `must be a number from ${spec.min} to ${spec.max}`
      const number = Number(value)
      return number < (spec.min ?? -Infinity) || number > (spec.max ?? Infinity) ? `must be from ${spec.min} to ${spec.max}` : null
    }
    case 'choice':
      return (spec.choices ?? []).includes(value) ? null : `must be one of ${(spec.choices ?? []).filter(Boolean).join(', ')}`
    case 'paths': {
      const paths = lines(text)
      if (paths.length > 100) return `at most 100 paths (now ${paths.length})`
      const wrong = paths.find((path) => !PATH_PATTERN.test(path) || path.length > 512)
      return wrong ? `"${wrong}" must start with / and may use * only as a final /*` : null
    }
    case 'domains': {
      const domains = lines(text)
      if (domains.length > 100) return `at most 100 hosts (now ${domains.length})`
      const wrong = domains.find((domain) => !/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(domain) || domain.length > 270)
      return wrong ? `"${wrong}" must be a host name like example.com or *.example.com, without scheme or path` : null
    }
    case 'greeting':
      return value.length > 1000 ? `at most 1000 characters (now ${value.length})` : null
    case 'secret':
      return value === '' || (value.length >= 16 && value.length <= 256) ? null : `must have 16 to 256 characters (now ${value.length})`
    case 'country':
      return value === '' || /^[A-Za-z]{2}$/.test(value) ? null : 'must be two letters, such as DE or US'
  }
}

/** The form's text from the stored integration (the identity secret is never shown: it stays empty). */
export function formValues(integration: { greeting_message: string | null; config: { allowed_domains: string[]; widget_config: Record<string, unknown>; default_country: string | null } }): FormValues {
  const config = { ...WIDGET_CONFIG_DEFAULTS, ...integration.config.widget_config } as Record<string, unknown>
  const values: FormValues = {}
  for (const spec of WIDGET_FIELDS) {
    if (!spec.inWidgetConfig) continue
    const value = config[spec.key]
    values[spec.key] = Array.isArray(value) ? value.join('\n') : value === null || value === undefined ? '' : String(value)
  }
  values.allowed_domains = integration.config.allowed_domains.join('\n')
  values.greeting_message = integration.greeting_message ?? ''
  values.identity_secret = ''
  values.default_country = integration.config.default_country ?? ''
  return values
}

/**
 * The fields whose typed text differs from the stored settings (what leaving the screen would
 * lose). Spaces around a value and blank lines do not count: saving would store the same.
 */
export function unsavedFields(values: FormValues, stored: Parameters<typeof formValues>[0]): string[] {
  const saved = formValues(stored)
  const same = (a: string, b: string) => lines(a).join('\n') === lines(b).join('\n')
  return Object.keys(saved).filter((key) => !same(values[key] ?? '', saved[key] ?? ''))
}

/** The fields a form shows: those of this server's widget_config (a field it does not know is not offered). */
export function shownFields(widgetConfig: Record<string, unknown>): FieldSpec[] {
  return WIDGET_FIELDS.filter((spec) => !spec.inWidgetConfig || spec.key in widgetConfig)
}

/** widget_config as the typed values give it (for the preview and the save); only valid fields. */
export function widgetConfigOf(values: FormValues, fields: FieldSpec[]): Record<string, unknown> {
  const config: Record<string, unknown> = {}
  for (const spec of fields) {
    if (!spec.inWidgetConfig || checkField(spec, values[spec.key] ?? '') !== null) continue
    const text = (values[spec.key] ?? '').trim()
    if (spec.kind === 'number') config[spec.key] = Number(text)
    else if (spec.kind === 'paths') config[spec.key] = lines(values[spec.key] ?? '').length > 0 ? lines(values[spec.key] ?? '') : null
    else if (spec.kind === 'optional-color' || spec.kind === 'url' || spec.kind === 'choice') config[spec.key] = text === '' && spec.key !== 'position' ? null : text
    else config[spec.key] = text
  }
  return config
}

/** The PATCH body of the web integration for what the form holds; null while any field is refused. */
export function patchOf(values: FormValues, fields: FieldSpec[]): Record<string, unknown> | null {
  if (fields.some((spec) => checkField(spec, values[spec.key] ?? '') !== null)) return null
  const body: Record<string, unknown> = {
    widget_config: widgetConfigOf(values, fields),
    allowed_domains: lines(values.allowed_domains ?? ''),
    greeting_message: (values.greeting_message ?? '').trim() || null,
    default_country: (values.default_country ?? '').trim().toUpperCase() || null,
  }
  const secret = (values.identity_secret ?? '').trim()
  if (secret) body.identity_secret = secret
  return body
}

export function embedSnippet(publicUrl: string, widgetKey: string): string {
  return `<script src="${publicUrl}/widget.js" data-widget-key="${widgetKey}" async></script>`
}

/** How a site tells the widget who its signed-in user is, signed with the identity secret on its server (docs/widget.md). */
export function identitySnippet(): string {
  return `<!-- On your server: hash = hex(HMAC-SHA256(identity_secret, user_id)), user_id in its canonical form
     (a lower-case e-mail address, or a phone number in E.164). Node.js:
     require('node:crypto').createHmac('sha256', IDENTITY_SECRET).update(userId).digest('hex') -->
<script>(function(w,p){p=w.ParleyWidget=w.ParleyWidget||{q:[]};["identify","setContactDetails"].forEach(function(m){p[m]=p[m]||function(){p.q.push([m,[].slice.call(arguments)])}})})(window);</script>
<script>ParleyWidget.identify('USER_ID', { hash: 'HASH_FROM_YOUR_SERVER' })</script>`
}
