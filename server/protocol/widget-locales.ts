/**
 * The widget's languages as plain constants: imported by the server (widget_config.locale's
 * schema, the catalogue route, the hello's `locale`) and by the widget at run time, so this
 * file imports nothing. The texts themselves are in widget-texts/ (docs/widget.md says how to
 * add a language).
 */
export const WIDGET_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ar', 'he', 'ja', 'zh'] as const
export type WidgetLocale = (typeof WIDGET_LOCALES)[number]

/** widget_config.locale: "auto" (the visitor's browser languages) or one fixed language. */
export const LOCALE_SETTINGS = ['auto', ...WIDGET_LOCALES] as const
export type LocaleSetting = (typeof LOCALE_SETTINGS)[number]

/** Written right to left: the widget's root gets dir="rtl". */
export const RTL_LOCALES: readonly WidgetLocale[] = ['ar', 'he']

/** Each language in its own words, for the console's choice. */
export const LOCALE_NAMES: Readonly<Record<WidgetLocale, string>> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  tr: 'Türkçe',
  ar: 'العربية',
  he: 'עברית',
  ja: '日本語',
  zh: '中文',
}

/** GET here `{tag}.json`: one language's texts (English is inside widget.js). */
export const WIDGET_TEXTS_PATH = '/widget/v1/texts/'

/**
 * A visitor's language as browsers give it (`navigator.language`): a BCP 47 tag, letters,
 * digits and hyphens, at most 35 characters (RFC 5646's longest useful tag). The server stores
 * it as the contact's `locale`; anything else is refused, never cut.
 */
export const LANGUAGE_TAG_PATTERN = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/
export const LANGUAGE_TAG_MAX_LENGTH = 35

/**
 * The widget's language for a visitor whose browser prefers `preferred` (most wanted first):
 * the first that Parley speaks exactly (`pt-BR` -> `pt`, by its primary language), else
 * English. A fixed widget_config.locale wins over the browser.
 */
export function chooseLocale(setting: string | null | undefined, preferred: readonly string[]): WidgetLocale {
  if (setting && setting !== 'auto' && (WIDGET_LOCALES as readonly string[]).includes(setting)) return setting as WidgetLocale
  for (const tag of preferred) {
    const primary = String(tag).toLowerCase().split('-')[0] as WidgetLocale
    if (WIDGET_LOCALES.includes(primary)) return primary
  }
  return 'en'
}

/** The primary language of a tag (`pt-BR` -> `pt`), lower case: what flows compare as `contact.language`. */
export function primaryLanguage(tag: string): string {
  return tag.split('-')[0]!.toLowerCase()
}
