import type { EN } from './en/index.ts'

/**
 * A text with a count: one form per plural category (Intl.PluralRules of the chosen language),
 * `other` always. `{count}` in a form is the count, formatted for the language.
 */
export interface Plural {
  zero?: string
  one?: string
  two?: string
  few?: string
  many?: string
  other: string
}

export type Entry = string | Plural

/** Every text of the app: the English catalogue's keys. A key not in it is a type error. */
export type TextKey = keyof typeof EN

/** The `{name}`s a template names. */
type NamesIn<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | NamesIn<Rest> : never
/** What a key's text needs filled in: its `{name}`s, and `count` for a plural. */
export type NamesOf<K extends TextKey> = (typeof EN)[K] extends string ? NamesIn<(typeof EN)[K]> : NamesIn<(typeof EN)[K][keyof (typeof EN)[K]]> | 'count'

export type Value = string | number
/** t(key) for a text without names, t(key, { name: value }) for one with: a missing or stray name is a type error. */
export type ValuesArg<K extends TextKey> = [NamesOf<K>] extends [never] ? [] : [values: Record<NamesOf<K>, Value>]

/**
 * Another language's catalogue of one area: every key of the English one (a missing key is a
 * type error), a string for a string and plural forms for a plural. That each keeps the
 * English `{name}`s is checked by test/app/i18n/catalogues.test.ts.
 */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Plural }
