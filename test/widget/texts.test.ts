import { describe, expect, test } from 'bun:test'
import { chooseLocale, RTL_LOCALES, WIDGET_LOCALES } from '../../server/protocol/widget-locales.ts'
import { EN_TEXTS } from '../../server/protocol/widget-texts/en.ts'
import { WIDGET_TEXTS } from '../../server/widget-assets/widget-texts.ts'
import { fillText } from '../../widget/src/fill-text.ts'
import { loadSpeech, pickSpeech } from '../../widget/src/speech.ts'

const places = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe("the widget's catalogue", () => {
  test('speaks the thirteen languages the issue asks for', () => {
    expect([...WIDGET_LOCALES].sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'tr', 'zh'])
    expect(Object.keys(WIDGET_TEXTS).sort()).toEqual([...WIDGET_LOCALES].sort())
    expect([...RTL_LOCALES].sort()).toEqual(['ar', 'he'])
  })

  test.each(WIDGET_LOCALES.filter((tag) => tag !== 'en'))('%s has every English key, no other, each translated with the same {places}', (tag) => {
    const texts = WIDGET_TEXTS[tag] as Record<string, unknown>
    expect(Object.keys(texts).sort()).toEqual(Object.keys(EN_TEXTS).sort())
    for (const [key, english] of Object.entries(EN_TEXTS)) {
      const text = texts[key]
      expect(typeof text === 'string' && text.trim() !== '', `${tag}.${key}`).toBe(true)
      expect(places(text as string), `${tag}.${key}`).toEqual(places(english))
    }
    // A catalogue that is English under another name is no translation.
    const same = Object.entries(EN_TEXTS).filter(([key, english]) => texts[key] === english && !/^\{|^(Audio|Video|Messages|Message|Agent|File|Image)$/.test(english))
    expect(same.length, `${tag} leaves English: ${same.map(([key]) => key).join(', ')}`).toBeLessThanOrEqual(2)
  })
})

describe("choosing the widget's language", () => {
  test("auto: the first of the browser's languages the widget speaks, by primary language; English last", () => {
    expect(chooseLocale('auto', ['pt-BR', 'en-US'])).toBe('pt')
    expect(chooseLocale('auto', ['sw', 'gsw-CH', 'de-AT', 'fr'])).toBe('de')
    expect(chooseLocale('auto', ['ZH-tw'])).toBe('zh')
    expect(chooseLocale('auto', ['sw', 'ko'])).toBe('en')
    expect(chooseLocale('auto', [])).toBe('en')
  })

  test("a fixed language wins over the browser's; an unknown setting is auto", () => {
    expect(chooseLocale('ja', ['ar', 'en'])).toBe('ja')
    expect(chooseLocale('xx', ['he'])).toBe('he')
    expect(chooseLocale(null, ['it-IT'])).toBe('it')
  })

  test("Intl formats with the browser's regional tag when it is the same language", () => {
    expect(pickSpeech('auto', ['pt-BR', 'en'])).toEqual({ tag: 'pt', intl: 'pt-BR' })
    expect(pickSpeech('fr', ['de-CH', 'fr-CA'])).toEqual({ tag: 'fr', intl: 'fr-CA' })
    expect(pickSpeech('ja', ['de-CH'])).toEqual({ tag: 'ja', intl: 'ja' })
  })

  test('fills {places} and leaves unknown ones as written', () => {
    expect(fillText('{name} is typing', { name: 'Ada' })).toBe('Ada is typing')
    expect(fillText('{a} {b}', { a: 1 })).toBe('1 {b}')
  })

  test('English needs no download; another language is fetched once, a missing key falling back to English', async () => {
    const asked: string[] = []
    const fetchImpl = (async (url: string) => {
      asked.push(url)
      return new Response(JSON.stringify({ send: 'إرسال', seen: 42 }), { headers: { 'content-type': 'application/json' } })
    }) as unknown as typeof fetch
    const english = await loadSpeech('https://chat.example.org', { tag: 'en', intl: 'en-GB' }, fetchImpl)
    expect(asked).toEqual([])
    expect(english).toMatchObject({ tag: 'en', intl: 'en-GB', dir: 'ltr' })
    const arabic = await loadSpeech('https://chat.example.org', { tag: 'ar', intl: 'ar' }, fetchImpl)
    expect(asked).toEqual(['https://chat.example.org/widget/v1/texts/ar.json'])
    expect(arabic.dir).toBe('rtl')
    expect(arabic.t.send).toBe('إرسال')
    expect(arabic.t.seen).toBe('Seen')
  })
})
