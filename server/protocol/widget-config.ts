import type { TLiteral, TSchema } from '@sinclair/typebox'
import { type Static, t } from 'elysia'
import { nameText } from '../support/name-text.ts'
import { LOCALE_SETTINGS } from './widget-locales.ts'
import { AVATAR_ICONS, AVATAR_URL_MAX_LENGTH, AVATAR_URL_PATTERN, WIDGET_CONFIG_DEFAULTS as D, WIDGET_LIMITS as L, POSITIONS, RATING_SCALES } from './widget-config-defaults.ts'

/**
 * widget_config as TypeBox schemas: the stored, complete form (every default filled in), the
 * create form (any subset) and the PATCH form (any subset; null restores a default).
 */

const HexColor = t.String({
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
  error: 'must be a hex colour like #0066ff or #06f',
  examples: ['#0066ff'],
})
/**
 * Literal tuples, so that a union's static type is the union of the values: a plain mapped
 * array (`values.map(t.Literal)`, typed `TLiteral<string>[]`) made the static type `string`
 * for TypeBox and `never` for Elysia's response types.
 */
type LiteralTuple<T extends readonly string[]> = { -readonly [K in keyof T]: T[K] extends string ? TLiteral<T[K]> : never }
const AvatarIcon = t.Union(AVATAR_ICONS.map((icon) => t.Literal(icon)) as unknown as LiteralTuple<typeof AVATAR_ICONS>)
const Position = t.Union(POSITIONS.map((position) => t.Literal(position)) as unknown as LiteralTuple<typeof POSITIONS>)
/** The end rating's scale (widget-protocol.ts names the rating frames' scale with it too). */
export const RatingScale = t.Union(RATING_SCALES.map((scale) => t.Literal(scale)) as unknown as LiteralTuple<typeof RATING_SCALES>)
const Locale = t.Union(LOCALE_SETTINGS.map((tag) => t.Literal(tag)) as unknown as LiteralTuple<typeof LOCALE_SETTINGS>, {
  error: `must be "auto" or one of the widget's languages: ${LOCALE_SETTINGS.slice(1).join(', ')}`,
})
const PathPattern = t.String({
  pattern: '^(?:/[^*]*|(?:/[^*]*)?/\\*)$',
  maxLength: 512,
  error: 'must start with / and may use * only as a final /*',
  examples: ['/contact', '/shop/*'],
})
/**
 * Only https: the widget runs on customers' pages, most of them https, where an http image is
 * mixed content; data: and javascript: URLs are no images to link to.
 */
const AvatarUrl = t.String({
  pattern: AVATAR_URL_PATTERN.source,
  maxLength: AVATAR_URL_MAX_LENGTH,
  error: `must be an https:// address of an image, at most ${AVATAR_URL_MAX_LENGTH} characters`,
  examples: ['https://example.com/bot.png'],
})

const fields = {
  bot_display_name: nameText(60, { default: D.bot_display_name }),
  primary_color: { ...HexColor, default: D.primary_color },
  secondary_color: { ...HexColor, default: D.secondary_color },
  background_color: t.Union([HexColor, t.Null()], { default: null }),
  bubble_text: t.String({ minLength: 1, maxLength: 60, default: D.bubble_text }),
  bot_avatar_icon: t.Union([AvatarIcon, t.Null()], { default: null }),
  bot_avatar_url: t.Union([AvatarUrl, t.Null()], { default: null }),
  font_size: t.Number({ minimum: L.font_size.min, maximum: L.font_size.max, default: D.font_size }),
  position: { ...Position, default: D.position },
  width: t.Number({ minimum: L.width.min, maximum: L.width.max, default: D.width }),
  height: t.Number({ minimum: L.height.min, maximum: L.height.max, default: D.height }),
  allowed_paths: t.Union([t.Array(PathPattern, { maxItems: 100 }), t.Null()], { default: null }),
  rating: t.Union([RatingScale, t.Null()], { default: null, description: 'the rating a closed conversation offers: thumbs, stars (1 to 5) or none' }),
  locale: { ...Locale, default: D.locale, description: "the widget's language: auto (the visitor's browser languages, best match, English last) or a fixed language tag" },
}

export const WidgetConfig = t.Object(fields, { additionalProperties: false })
export type WidgetConfig = Static<typeof WidgetConfig>

/**
 * A request field: the same rules without the `default` keyword, because Elysia applies a
 * body schema's defaults by `Object.assign({}, body)`, which turns a JSON array body into an
 * object before validation. The default stays visible in the description.
 */
function requestField<T extends TSchema>(schema: T): T {
  const { default: value, ...rules } = schema
  return { ...rules, description: `default: ${value === null ? 'none (null)' : JSON.stringify(value)}` } as unknown as T
}
const requestFields = Object.fromEntries(
  Object.entries(fields).map(([key, schema]) => [key, requestField(schema as TSchema)]),
) as unknown as typeof fields

export const WidgetConfigInput = t.Partial(t.Object(requestFields), { additionalProperties: false })
export type WidgetConfigInput = Static<typeof WidgetConfigInput>

/** Optional and nullable: absent keeps the stored value, null restores the default. */
const patchable = <T extends TSchema>(schema: T) => t.Optional(t.Union([schema, t.Null()]))

// Spelled out key by key (not mapped at run time) so that its static type stays shallow
// enough to nest in other schemas: a cast TObject made `Static<>` of a PATCH body too deep.
export const WidgetConfigPatch = t.Object(
  {
    bot_display_name: patchable(requestFields.bot_display_name),
    primary_color: patchable(requestFields.primary_color),
    secondary_color: patchable(requestFields.secondary_color),
    // Already nullable (their default is null); wrapping again doubled ", or null" in messages.
    background_color: t.Optional(requestFields.background_color),
    bubble_text: patchable(requestFields.bubble_text),
    bot_avatar_icon: t.Optional(requestFields.bot_avatar_icon),
    bot_avatar_url: t.Optional(requestFields.bot_avatar_url),
    font_size: patchable(requestFields.font_size),
    position: patchable(requestFields.position),
    width: patchable(requestFields.width),
    height: patchable(requestFields.height),
    allowed_paths: t.Optional(requestFields.allowed_paths),
    rating: t.Optional(requestFields.rating),
    locale: patchable(requestFields.locale),
  } satisfies Record<keyof WidgetConfig, TSchema>,
  { additionalProperties: false, description: 'merged key by key; null restores the default' },
)
export type WidgetConfigPatch = Static<typeof WidgetConfigPatch>
