import { EN_TEXTS, type TextKey, type WidgetTexts } from '../../server/protocol/widget-texts/en.ts'
import { chooseLocale, RTL_LOCALES, WIDGET_TEXTS_PATH, type WidgetLocale } from '../../server/protocol/widget-locales.ts'

/** The language the widget speaks: its texts, their direction, and the tag Intl formats times with. */
export interface Speech {
  tag: WidgetLocale
  /** For Intl: the browser's own regional tag when it is of the same language (pt-BR for pt), else `tag`. */
  intl: string
  dir: 'ltr' | 'rtl'
  t: WidgetTexts
}

export const ENGLISH: Speech = { tag: 'en', intl: 'en', dir: 'ltr', t: EN_TEXTS }

/** widget_config.locale and the browser's languages (most wanted first) -> the language and its Intl tag. */
export function pickSpeech(setting: string | null | undefined, preferred: readonly string[]): { tag: WidgetLocale; intl: string } {
  const tag = chooseLocale(setting, preferred)
  const regional = preferred.find((wanted) => String(wanted).toLowerCase().split('-')[0] === tag)
  let intl: string = tag
  try {
    if (regional) intl = Intl.getCanonicalLocales(regional)[0] ?? tag
  } catch {}
  return { tag, intl }
}

/**
 * The texts of one language: English at once (it is inside widget.js), any other fetched from
 * the Parley server (WIDGET_TEXTS_PATH, one small JSON file, cached like widget.js). A key the
 * file lacks, or a value that is not a string, is English; a failed fetch is English throughout.
 */
export async function loadSpeech(serverUrl: string, chosen: { tag: WidgetLocale; intl: string }, fetchImpl: typeof fetch = fetch): Promise<Speech> {
  const dir = RTL_LOCALES.includes(chosen.tag) ? 'rtl' : 'ltr'
  if (chosen.tag === 'en') return { ...ENGLISH, intl: chosen.intl }
  const response = await fetchImpl(`${serverUrl}${WIDGET_TEXTS_PATH}${chosen.tag}.json`, { credentials: 'omit', headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`the ${chosen.tag} texts answered HTTP ${response.status}`)
  const given = (await response.json()) as Record<string, unknown>
  const t = { ...EN_TEXTS } as Record<TextKey, string>
  for (const key of Object.keys(EN_TEXTS) as TextKey[]) {
    const value = given?.[key]
    if (typeof value === 'string') t[key] = value
  }
  return { tag: chosen.tag, intl: chosen.intl, dir, t }
}
