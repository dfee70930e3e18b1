import type { TObject, TSchema } from '@sinclair/typebox'
import { type Static, t } from 'elysia'
import { AVATAR_ICONS, WIDGET_CONFIG_DEFAULTS as D, WIDGET_LIMITS as L, POSITIONS } from './widget-config-defaults.ts'

/**
 * widget_config as TypeBox schemas: the stored, complete form (every default filled in), the
 * create form (any subset) and the PATCH form (any subset; null restores a default).
 */

const HexColor = t.String({
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
  error: 'must be a hex colour like #0066ff or #06f',
  examples: ['#0066ff'],
})
const AvatarIcon = t.Union(AVATAR_ICONS.map((icon) => t.Literal(icon)))
const Position = t.Union(POSITIONS.map((position) => t.Literal(position)))
const PathPattern = t.String({
  pattern: '^(?:/[^*]*|(?:/[^*]*)?/\\*)$',
  maxLength: 512,
  error: 'must start with / and may use * only as a final /*',
  examples: ['/contact', '/shop/*'],
})

const fields = {
  bot_display_name: t.String({ minLength: 1, maxLength: 60, default: D.bot_display_name }),
  primary_color: { ...HexColor, default: D.primary_color },
  secondary_color: { ...HexColor, default: D.secondary_color },
  background_color: t.Union([HexColor, t.Null()], { default: null }),
  bubble_text: t.String({ minLength: 1, maxLength: 60, default: D.bubble_text }),
  bot_avatar_icon: t.Union([AvatarIcon, t.Null()], { default: null }),
  font_size: t.Number({ minimum: L.font_size.min, maximum: L.font_size.max, default: D.font_size }),
  position: { ...Position, default: D.position },
  width: t.Number({ minimum: L.width.min, maximum: L.width.max, default: D.width }),
  height: t.Number({ minimum: L.height.min, maximum: L.height.max, default: D.height }),
  allowed_paths: t.Union([t.Array(PathPattern, { maxItems: 100 }), t.Null()], { default: null }),
}

export const WidgetConfig = t.Object(fields, { additionalProperties: false })
export type WidgetConfig = Static<typeof WidgetConfig>

export const WidgetConfigInput = t.Partial(WidgetConfig, { additionalProperties: false })
export type WidgetConfigInput = Static<typeof WidgetConfigInput>

export type WidgetConfigPatch = { [K in keyof WidgetConfig]?: WidgetConfig[K] | null }
export const WidgetConfigPatch = t.Object(
  Object.fromEntries(
    Object.entries(fields).map(([key, schema]) => [key, t.Optional(t.Union([schema as TSchema, t.Null()]))]),
  ),
  { additionalProperties: false, description: 'merged key by key; null restores the default' },
) as unknown as TObject & { static: WidgetConfigPatch }
