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
import { t } from '../../i18n/language.ts'

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

/** A field's label and limit are read from the catalogue each time they are shown (getters), so they follow the language. */
const field = (spec: Omit<FieldSpec, 'label' | 'limit' | 'choiceLabels'>, limit: () => string, choiceLabels?: () => Readonly<Record<string, string>>): FieldSpec => ({
  ...spec,
  get choiceLabels() {
    return choiceLabels?.()
  },
  get label() {
    return t(`widget.field.${spec.key as WidgetFieldKey}`)
  },
  get limit() {
    return limit()
  },
})
type WidgetFieldKey = 'bot_display_name' | 'bubble_text' | 'primary_color' | 'secondary_color' | 'background_color' | 'bot_avatar_icon' | 'bot_avatar_url' | 'font_size' | 'position' | 'width' | 'height' | 'allowed_paths' | 'rating' | 'locale' | 'allowed_domains' | 'greeting_message' | 'identity_secret' | 'default_country'
const pixels = (limits: { min: number; max: number }) => () => t('widget.limit.pixels', { min: String(limits.min), max: String(limits.max) })

export const WIDGET_FIELDS: FieldSpec[] = [
  field({ key: 'bot_display_name', kind: 'text', maxLength: 60, inWidgetConfig: true }, () => t('widget.limit.name')),
  field({ key: 'bubble_text', kind: 'text', maxLength: 60, inWidgetConfig: true }, () => t('widget.limit.name')),
  field({ key: 'primary_color', kind: 'color', inWidgetConfig: true }, () => t('widget.limit.primary')),
  field({ key: 'secondary_color', kind: 'color', inWidgetConfig: true }, () => t('widget.limit.secondary')),
  field({ key: 'background_color', kind: 'optional-color', inWidgetConfig: true }, () => t('widget.limit.background')),
  field({ key: 'bot_avatar_icon', kind: 'choice', choices: AVATAR_ICONS, inWidgetConfig: true }, () => t('widget.limit.icon')),
  field({ key: 'bot_avatar_url', kind: 'url', maxLength: AVATAR_URL_MAX_LENGTH, inWidgetConfig: true }, () => t('widget.limit.avatar', { max: String(AVATAR_URL_MAX_LENGTH) })),
  field({ key: 'font_size', kind: 'number', min: WIDGET_LIMITS.font_size.min, max: WIDGET_LIMITS.font_size.max, inWidgetConfig: true }, pixels(WIDGET_LIMITS.font_size)),
  field({ key: 'position', kind: 'choice', choices: POSITIONS, inWidgetConfig: true }, () => t('widget.limit.position')),
  field({ key: 'width', kind: 'number', min: WIDGET_LIMITS.width.min, max: WIDGET_LIMITS.width.max, inWidgetConfig: true }, pixels(WIDGET_LIMITS.width)),
  field({ key: 'height', kind: 'number', min: WIDGET_LIMITS.height.min, max: WIDGET_LIMITS.height.max, inWidgetConfig: true }, pixels(WIDGET_LIMITS.height)),
  field({ key: 'allowed_paths', kind: 'paths', inWidgetConfig: true }, () => t('widget.limit.paths')),
  field({ key: 'rating', kind: 'choice', choices: ['', 'thumbs', 'stars'], inWidgetConfig: true }, () => t('widget.limit.rating')),
  field({ key: 'locale', kind: 'choice', choices: LOCALE_SETTINGS, inWidgetConfig: true }, () => t('widget.limit.locale'), () => ({
    auto: t('widget.localeAuto'),
    ...Object.fromEntries(Object.entries(LOCALE_NAMES).map(([tag, name]) => [tag, t('widget.localeName', { name, tag })])),
  })),
  field({ key: 'allowed_domains', kind: 'domains', inWidgetConfig: false }, () => t('widget.limit.domains')),
  field({ key: 'greeting_message', kind: 'greeting', maxLength: 1000, inWidgetConfig: false }, () => t('widget.limit.greeting')),
  field({ key: 'identity_secret', kind: 'secret', maxLength: 256, inWidgetConfig: false }, () => t('widget.limit.secret')),
  field({ key: 'default_country', kind: 'country', inWidgetConfig: false }, () => t('widget.limit.country')),
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
      if (value.length === 0) return t('widget.check.empty')
      return value.length > (spec.maxLength ?? Infinity) ? t('widget.check.tooLong', { max: String(spec.maxLength), length: String(value.length) }) : null
    case 'color':
      return HEX_COLOR.test(value) ? null : t('widget.check.hex')
    case 'optional-color':
      return value === '' || HEX_COLOR.test(value) ? null : t('widget.check.hexOrEmpty')
    case 'url':
      if (value === '') return null
      if (value.length > AVATAR_URL_MAX_LENGTH) return t('widget.check.atMost', { max: String(AVATAR_URL_MAX_LENGTH) })
      return AVATAR_URL_PATTERN.test(value) ? null : t('widget.check.https')
    case 'number': {
      if (!/^\d+(\.\d+)?$/.test(value)) return t('widget.check.number', { min: String(spec.min), max: String(spec.max) })
      const number = Number(value)
      return number < (spec.min ?? -Infinity) || number > (spec.max ?? Infinity) ? t('widget.check.range', { min: String(spec.min), max: String(spec.max) }) : null
    }
    case 'choice':
      return (spec.choices ?? []).includes(value) ? null : t('widget.check.oneOf', { choices: (spec.choices ?? []).filter(Boolean).join(', ') })
    case 'paths': {
      const paths = lines(text)
      if (paths.length > 100) return t('widget.check.paths', { count: String(paths.length) })
      const wrong = paths.find((path) => !PATH_PATTERN.test(path) || path.length > 512)
      return wrong ? t('widget.check.path', { path: wrong }) : null
    }
    case 'domains': {
      const domains = lines(text)
      if (domains.length > 100) return t('widget.check.hosts', { count: String(domains.length) })
      const wrong = domains.find((domain) => !/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(domain) || domain.length > 270)
      return wrong ? t('widget.check.host', { host: wrong }) : null
    }
    case 'greeting':
      return value.length > 1000 ? t('widget.check.greeting', { length: String(value.length) }) : null
    case 'secret':
      return value === '' || (value.length >= 16 && value.length <= 256) ? null : t('widget.check.secret', { length: String(value.length) })
    case 'country':
      return value === '' || /^[A-Za-z]{2}$/.test(value) ? null : t('widget.check.country')
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
  return `<script src="${publicUrl}/widget.js?key=${widgetKey}" data-widget-key="${widgetKey}" async></script>`
}

/** How a site tells the widget who its signed-in user is, signed with the identity secret on its server (docs/widget.md). */
export function identitySnippet(): string {
  return `<!-- On your server: hash = hex(HMAC-SHA256(identity_secret, user_id)), user_id in its canonical form
     (a lower-case e-mail address, or a phone number in E.164). Node.js:
     require('node:crypto').createHmac('sha256', IDENTITY_SECRET).update(userId).digest('hex') -->
<script>(function(w,p){p=w.ParleyWidget=w.ParleyWidget||{q:[]};["identify","setContactDetails"].forEach(function(m){p[m]=p[m]||function(){p.q.push([m,[].slice.call(arguments)])}})})(window);</script>
<script>ParleyWidget.identify('USER_ID', { hash: 'HASH_FROM_YOUR_SERVER' })</script>`
}
