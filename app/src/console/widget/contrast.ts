import { t } from '../../i18n/language.ts'
import { textColorOn } from '../../../../widget/src/settings.ts'

/** WCAG 2.1's thresholds: text (1.4.3, AA) and the focus ring and borders (1.4.11, non-text). */
export const AA_TEXT = 4.5
export const AA_NON_TEXT = 3

/** A hex colour's relative luminance (WCAG 2.1), #rgb or #rrggbb. */
export function luminance(hex: string): number {
  const value = hex.trim().replace(/^#/, '')
  const digits = value.length === 3 ? [...value].map((digit) => digit + digit).join('') : value.slice(0, 6)
  const channel = (offset: number) => {
    const c = Number.parseInt(digits.slice(offset, offset + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

/** The contrast ratio of two colours, from 1 (the same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

export interface ColourCheck {
  /** The text the widget writes on the primary colour (its own pick: black or white). */
  text: string
  textRatio: number
  /** The primary colour against the chat's background: the focus ring, the composer's mark, borders. */
  backgroundRatio: number
  /** What falls below AA, in the builder's words; empty when nothing does. */
  warnings: string[]
}

/** A ratio as people read it, rounded down (2.99 is not shown as a passing 3.0): "4.5:1". */
export const shownRatio = (ratio: number) => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`

/** How readable `primary` is in the widget, on a chat background of `background` (white by default). */
export function checkPrimaryColour(primary: string, background = '#ffffff'): ColourCheck {
  const text = textColorOn(primary)
  const textRatio = contrastRatio(primary, text)
  const backgroundRatio = contrastRatio(primary, background)
  const warnings: string[] = []
  if (textRatio < AA_TEXT) warnings.push(t('widget.contrastText', { ratio: shownRatio(textRatio), needed: String(AA_TEXT) }))
  if (backgroundRatio < AA_NON_TEXT) warnings.push(t('widget.contrastRing', { ratio: shownRatio(backgroundRatio), needed: String(AA_NON_TEXT) }))
  return { text, textRatio, backgroundRatio, warnings }
}
