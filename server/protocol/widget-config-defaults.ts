/**
 * widget_config values and limits from the spec, as plain constants: imported by the server's
 * schemas and by the widget at run time, so this file imports only other such constants.
 */
import type { LocaleSetting } from './widget-locales.ts'

export const AVATAR_ICONS = ['', 'robot', 'headset', 'sparkle', 'heart', 'store', 'graduation', 'chat'] as const
export type AvatarIcon = (typeof AVATAR_ICONS)[number]

/** The end rating a closed conversation offers: thumbs up or down, or one to five stars. */
export const RATING_SCALES = ['thumbs', 'stars'] as const
export type RatingScaleName = (typeof RATING_SCALES)[number]

export const POSITIONS = ['bottom-right', 'bottom-left'] as const
export type Position = (typeof POSITIONS)[number]

export interface WidgetConfigValues {
  bot_display_name: string
  primary_color: string
  secondary_color: string
  background_color: string | null
  bubble_text: string
  bot_avatar_icon: AvatarIcon | null
  /** An https image shown as the chatbot's avatar; bot_avatar_icon stands in when it fails to load. */
  bot_avatar_url: string | null
  font_size: number
  position: Position
  width: number
  height: number
  allowed_paths: string[] | null
  /** The rating offered when a conversation ends; null offers none. */
  rating: RatingScaleName | null
  /** The widget's language: "auto" (the visitor's browser languages) or a fixed one (widget-locales.ts). */
  locale: LocaleSetting
}

/** Every default of the spec's table; "none" is null. */
export const WIDGET_CONFIG_DEFAULTS: Readonly<WidgetConfigValues> = Object.freeze({
  bot_display_name: 'Assistant',
  primary_color: '#0066ff',
  secondary_color: '#f0f4ff',
  background_color: null,
  bubble_text: 'Need Help?',
  bot_avatar_icon: null,
  bot_avatar_url: null,
  font_size: 13.5,
  position: 'bottom-right',
  width: 380,
  height: 600,
  allowed_paths: null,
  rating: null,
  locale: 'auto',
})

export const WIDGET_LIMITS = {
  font_size: { min: 12, max: 24 },
  width: { min: 280, max: 600 },
  height: { min: 400, max: 800 },
} as const

/** The longest bot_avatar_url: a URL longer than this is refused rather than cut. */
export const AVATAR_URL_MAX_LENGTH = 2048
/** https://host[/...]: no other scheme (the widget runs on customers' https pages), no spaces. */
export const AVATAR_URL_PATTERN = /^https:\/\/[^\s/?#\\]+(?:[/?#]\S*)?$/

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
/** `/exact` or `/base/*`: starts with `/`, and `*` only as a final `/*`. */
export const PATH_PATTERN = /^(?:\/[^*]*|(?:\/[^*]*)?\/\*)$/
