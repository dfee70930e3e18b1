import {
  AVATAR_ICONS,
  AVATAR_URL_MAX_LENGTH,
  AVATAR_URL_PATTERN,
  type AvatarIcon,
  HEX_COLOR,
  PATH_PATTERN,
  POSITIONS,
  type Position,
  RATING_SCALES,
  type RatingScaleName,
  WIDGET_CONFIG_DEFAULTS,
  WIDGET_LIMITS,
  type WidgetConfigValues,
} from '../../server/protocol/widget-config-defaults.ts'
import { LOCALE_SETTINGS, type LocaleSetting } from '../../server/protocol/widget-locales.ts'

/**
 * The widget_config the server sent, made safe to draw: every key present, each value of the
 * right kind and range, or the default (a server and a widget of different versions must
 * never break a page).
 */
export function resolveSettings(raw: Record<string, unknown> | null | undefined): WidgetConfigValues {
  const given = raw ?? {}
  const d = WIDGET_CONFIG_DEFAULTS
  const text = (key: 'bot_display_name' | 'bubble_text') => {
    const value = given[key]
    return typeof value === 'string' && value.trim() ? value : d[key]
  }
  const color = (key: 'primary_color' | 'secondary_color') => {
    const value = given[key]
    return typeof value === 'string' && HEX_COLOR.test(value) ? value : d[key]
  }
  const number = (key: keyof typeof WIDGET_LIMITS) => {
    const value = given[key]
    const { min, max } = WIDGET_LIMITS[key]
    return typeof value === 'number' && value >= min && value <= max ? value : d[key]
  }
  const background = given.background_color
  const icon = given.bot_avatar_icon
  const avatarUrl = given.bot_avatar_url
  const position = given.position
  const paths = given.allowed_paths
  const rating = given.rating
  return {
    bot_display_name: text('bot_display_name'),
    primary_color: color('primary_color'),
    secondary_color: color('secondary_color'),
    background_color: typeof background === 'string' && HEX_COLOR.test(background) ? background : null,
    bubble_text: text('bubble_text'),
    bot_avatar_icon: AVATAR_ICONS.includes(icon as AvatarIcon) ? (icon as AvatarIcon) : null,
    bot_avatar_url:
      typeof avatarUrl === 'string' && avatarUrl.length <= AVATAR_URL_MAX_LENGTH && AVATAR_URL_PATTERN.test(avatarUrl) ? avatarUrl : null,
    font_size: number('font_size'),
    position: POSITIONS.includes(position as Position) ? (position as Position) : d.position,
    width: number('width'),
    height: number('height'),
    allowed_paths: Array.isArray(paths)
      ? paths.filter((path): path is string => typeof path === 'string' && PATH_PATTERN.test(path))
      : null,
    rating: RATING_SCALES.includes(rating as RatingScaleName) ? (rating as RatingScaleName) : null,
    locale: LOCALE_SETTINGS.includes(given.locale as LocaleSetting) ? (given.locale as LocaleSetting) : d.locale,
  }
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textColorOn(hex: string): '#000000' | '#ffffff' {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1, 7)
  const channel = (offset: number) => {
    const value = Number.parseInt(digits.slice(offset, offset + 2), 16) / 255
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
  // Contrast with white (1.05 / (L + 0.05)) against contrast with black ((L + 0.05) / 0.05).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#000000'
}
