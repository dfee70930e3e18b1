import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { APP_LOCALES } from '../../../server/people/app-locales.ts'
import type { Entry } from '../../../app/src/i18n/catalogue.ts'
import { EN } from '../../../app/src/i18n/en/index.ts'
import { ES } from '../../../app/src/i18n/es/index.ts'
import { applyLanguage, chooseLanguage, fill, language, listOf, t } from '../../../app/src/i18n/language.ts'

const CATALOGUES: Record<string, Record<string, Entry>> = { en: EN, es: ES }
const names = (entry: Entry) => [...new Set((typeof entry === 'string' ? [entry] : Object.values(entry)).flatMap((text) => [...(text ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1])))].sort()

describe("the app's catalogues", () => {
  test('every language the server accepts for a person has a catalogue, and every catalogue folder is such a language', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...APP_LOCALES].sort())
    const folders = readdirSync(new URL('../../../app/src/i18n/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    expect(folders.sort()).toEqual([...APP_LOCALES].sort())
  })

  for (const [tag, catalogue] of Object.entries(CATALOGUES).filter(([tag]) => tag !== 'en')) {
    test(`${tag}: every English key, each with the same {names} and the same kind (text or plural), none left in English`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(EN).sort())
      const misnamed = Object.entries(EN).filter(([key, english]) => JSON.stringify(names(english)) !== JSON.stringify(names(catalogue[key]!))).map(([key]) => key)
      expect(misnamed).toEqual([])
      const kinds = Object.entries(EN).filter(([key, english]) => typeof english !== typeof catalogue[key]).map(([key]) => key)
      expect(kinds).toEqual([])
      // The same as English is fine for a name or a code ("Chatbot", "{seconds} s"), not for a sentence.
      const untranslated = Object.entries(EN).filter(([key, english]) => typeof english === 'string' && english === catalogue[key] && /\p{L}{3,} \p{L}{3,} \p{L}{3,}/u.test(english)).map(([key]) => key)
      expect(untranslated).toEqual([])
    })
  }
})

describe('t(): named values, plurals, the language chosen', () => {
  test('fills {names}, formats numbers for the language and picks the plural form by Intl.PluralRules', () => {
    expect(fill('Sending {name}…', 'en', { name: 'cv.pdf' })).toBe('Sending cv.pdf…')
    expect(fill('{n} left', 'en', { n: 12345 })).toBe('12,345 left')
    expect(fill('{n} left', 'es', { n: 12345 })).toBe('12.345 left')
    const forms = { one: '{count} conversation', other: '{count} conversations' }
    expect([0, 1, 2].map((count) => fill(forms, 'en', { count }))).toEqual(['0 conversations', '1 conversation', '2 conversations'])
    expect(fill('{missing} stays', 'en', {})).toBe('{missing} stays')
  })

  test("a person's choice wins; else the browser's languages, best match first; else English; regional tags kept for Intl", () => {
    expect(chooseLanguage('es', ['en-US'])).toEqual({ tag: 'es', intl: 'es' })
    expect(chooseLanguage(null, ['fr-FR', 'es-MX', 'en'])).toEqual({ tag: 'es', intl: 'es-MX' })
    expect(chooseLanguage(null, ['fr', 'de'])).toEqual({ tag: 'en', intl: 'en' })
    expect(chooseLanguage('xx', ['en-GB'])).toEqual({ tag: 'en', intl: 'en-GB' })
  })

  test('Spanish is loaded when chosen, and t() answers in it, plurals and lists included; English again after', async () => {
    await applyLanguage('es', ['en'])
    expect(language()).toBe('es')
    expect(t('desk.view.waiting')).toBe('En espera')
    expect(t('desk.othersTyping', { count: 2, names: listOf(['Ana', 'Luis']) })).toBe('Ana y Luis están escribiendo…')
    expect(t('desk.othersTyping', { count: 1, names: 'Ana' })).toBe('Ana está escribiendo…')
    await applyLanguage(null, ['en-US'])
    expect(t('desk.othersTyping', { count: 2, names: listOf(['Ana', 'Luis']) })).toBe('Ana and Luis are typing…')
  })
})

/** Never called: `npm run typecheck` (tsc) fails if a key the catalogue lacks, or a wrong {name}, stops being a type error. */
export function typeErrors(): void {
  // @ts-expect-error: no such key in the catalogue
  t('desk.noSuchText')
  // @ts-expect-error: the text names {name}, not {who}
  t('desk.sending', { who: 'Ada' })
  // @ts-expect-error: the text needs its {name}
  t('desk.sending')
}
