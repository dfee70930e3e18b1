import { createSignal, type JSX } from 'solid-js'
import { type AppLocale, APP_LOCALES } from '../../../server/people/app-locales.ts'
import type { Entry, NamesOf, Plural, TextKey, Value, ValuesArg } from './catalogue.ts'
import { EN } from './en/index.ts'

export type { AppLocale, TextKey }

type Texts = Record<TextKey, Entry>

/**
 * The language the app speaks: English is in the first chunk; any other is its own lazy chunk,
 * imported once chosen. Each is a module of the app (not a JSON file the server serves), so
 * a missing key is a type error and the binary embeds it with the other chunks.
 */
const LOADERS: Record<Exclude<AppLocale, 'en'>, () => Promise<{ ES: Texts }>> = {
  es: () => import('./es/index.ts'),
}

interface Spoken {
  tag: AppLocale
  /** For Intl: the browser's regional tag when it is of the same language (es-MX for es), else `tag`. */
  intl: string
  texts: Texts
}

const [spoken, setSpoken] = createSignal<Spoken>({ tag: 'en', intl: 'en', texts: EN as Texts })

/** The language shown now (reactive). */
export const language = (): AppLocale => spoken().tag
/** The tag Intl formats dates, times and numbers with (reactive). */
export const intlTag = (): string => spoken().intl

/**
 * A person's choice (null: follow the browser) and the browser's languages, most wanted first
 * -> the app's language, English when none matches, and the tag Intl formats with.
 */
export function chooseLanguage(chosen: string | null | undefined, preferred: readonly string[]): { tag: AppLocale; intl: string } {
  const base = (wanted: string) => String(wanted).toLowerCase().split('-')[0] ?? ''
  const known = (candidate: string): candidate is AppLocale => (APP_LOCALES as readonly string[]).includes(candidate)
  const tag: AppLocale = chosen && known(chosen) ? chosen : (preferred.map(base).find(known) ?? 'en')
  const regional = preferred.find((wanted) => base(wanted) === tag)
  let intl: string = tag
  try {
    if (regional) intl = Intl.getCanonicalLocales(regional)[0] ?? tag
  } catch {}
  return { tag, intl }
}

/** The browser's languages, most wanted first. */
export function browserLanguages(): readonly string[] {
  const browser = globalThis.navigator as Navigator | undefined
  return browser?.languages?.length ? browser.languages : browser?.language ? [browser.language] : []
}

let asked = 0
/**
 * Speaks the language a person chose (null: their browser's), from the next render on, and
 * says so on <html lang>. Resolves once its texts are loaded; a later call wins over an earlier
 * one still loading. A chunk that fails to load leaves the language as it was.
 */
export async function applyLanguage(chosen: string | null | undefined, preferred: readonly string[] = browserLanguages()): Promise<void> {
  const mine = ++asked
  const { tag, intl } = chooseLanguage(chosen, preferred)
  const texts = tag === 'en' ? (EN as Texts) : { ...(EN as Texts), ...(await LOADERS[tag]()).ES }
  if (mine !== asked) return
  setSpoken({ tag, intl, texts })
  if (typeof document !== 'undefined') document.documentElement.lang = intl
}

/**
 * The text of `key` in the language shown (reactive: read inside JSX, it changes with the
 * language), its `{name}`s filled in; a plural picks its form by `count` (Intl.PluralRules).
 */
export function t<K extends TextKey>(key: K, ...values: ValuesArg<K>): string {
  const { texts, intl } = spoken()
  return fill(texts[key] ?? (EN as Texts)[key], intl, values[0] as Record<string, Value> | undefined)
}

/**
 * A text with elements in it (a link inside a sentence): its `{name}`s filled with the
 * elements or values given, so each language puts the link where its grammar wants it; a
 * plural's form is picked by `count`.
 */
export function rich<K extends TextKey>(key: K, parts: Record<NamesOf<K>, JSX.Element>, count = 0): JSX.Element {
  const { texts, intl } = spoken()
  const entry = texts[key] ?? (EN as Texts)[key]
  const text = typeof entry === 'string' ? entry : pluralForm(entry, intl, count)
  return text.split(/\{(\w+)\}/).map((piece, index) => (index % 2 === 1 ? ((parts as Record<string, JSX.Element>)[piece] ?? `{${piece}}`) : piece))
}

/** Names as a list the language's way: "Ada, Sam and Kim" / "Ada, Sam y Kim". */
export const listOf = (names: readonly string[]): string => new Intl.ListFormat(intlTag(), { style: 'long', type: 'conjunction' }).format(names)

/** A number written the language's way (1,234.5 or 1.234,5). */
export const number = (value: number, options?: Intl.NumberFormatOptions): string => value.toLocaleString(intlTag(), options)

const pluralRules = new Map<string, Intl.PluralRules>()

/** An entry of a catalogue as shown: the plural form for `count`, `{name}`s replaced (numbers formatted for `intl`). */
export function fill(entry: Entry, intl: string, values: Record<string, Value> = {}): string {
  let text = typeof entry === 'string' ? entry : pluralForm(entry, intl, Number(values.count ?? 0))
  text = text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? value.toLocaleString(intl) : value
  })
  return text
}

function pluralForm(forms: Plural, intl: string, count: number): string {
  let rules = pluralRules.get(intl)
  if (!rules) pluralRules.set(intl, (rules = new Intl.PluralRules(intl)))
  return forms[rules.select(count)] ?? forms.other
}
