import { describe, expect, test } from 'bun:test'
import { runInNewContext } from 'node:vm'
import { join } from 'node:path'
import { WIDGET_TEXTS } from '../../server/widget-assets/widget-texts.ts'

const bundlePath = join(import.meta.dir, '../../dist/widget/widget.js')
const source = await Bun.file(bundlePath).text()
const liveSource = await Bun.file(join(import.meta.dir, '../../dist/widget/widget-live.js')).text()
const chatSource = await Bun.file(join(import.meta.dir, '../../dist/widget/widget-chat.js')).text()

/** The most popular open-source bot embed is ~196 KB gzipped; ours must stay a small fraction. */
const BUDGET_GZIPPED = 20 * 1024
/** Issue 34: the script that draws the bubble, what a page runs before anything of the widget shows. */
const LOADER_BUDGET_GZIPPED = 14 * 1024
const gzip = (text: string) => Bun.gzipSync(new TextEncoder().encode(text), { level: 9 }).length

describe('the built widget.js and widget-live.js', () => {
  test(`widget.js, which draws the bubble, is at most ${LOADER_BUDGET_GZIPPED / 1024} KB gzipped and has no Solid of its own`, () => {
    console.log(`widget.js: ${(source.length / 1024).toFixed(1)} KB, ${(gzip(source) / 1024).toFixed(1)} KB gzipped`)
    expect(gzip(source)).toBeLessThanOrEqual(LOADER_BUDGET_GZIPPED)
    expect(source).not.toContain('solid-track')
    expect(liveSource).toContain('solid-track')
  })

  test(`with widget-live.js, at most ${BUDGET_GZIPPED / 1024} KB gzipped: what every page loads before the chat is opened`, () => {
    const both = gzip(source) + gzip(liveSource)
    console.log(`widget-live.js: ${(liveSource.length / 1024).toFixed(1)} KB, ${(gzip(liveSource) / 1024).toFixed(1)} KB gzipped; with widget.js ${(both / 1024).toFixed(1)} KB`)
    expect(both).toBeLessThanOrEqual(BUDGET_GZIPPED)
  })

  test(`with any one language's texts, still at most ${BUDGET_GZIPPED / 1024} KB gzipped before the chat is opened (only the chosen language is downloaded)`, () => {
    const scripts = gzip(source) + gzip(liveSource)
    const sizes = Object.entries(WIDGET_TEXTS).map(([tag, texts]) => [tag, scripts + (tag === 'en' ? 0 : gzip(JSON.stringify(texts)))] as const)
    console.log(`before the chat opens: ${sizes.map(([tag, bytes]) => `${tag} ${(bytes / 1024).toFixed(1)} KB`).join(', ')}`)
    for (const [, bytes] of sizes) expect(bytes).toBeLessThanOrEqual(BUDGET_GZIPPED)
    // English is carried inside widget-live.js: its texts are there, the others are not; the bubble needs none.
    expect(liveSource).toContain('Write a message')
    expect(liveSource).not.toContain('Escribe un mensaje')
    expect(source).not.toContain('Write a message')
  })

  test('widget.js asks for widget-live.js with the hash of its bytes, so a cached older copy never runs with a newer widget.js', () => {
    expect(source).toContain(`/widget-live.js?v=${Bun.hash(liveSource).toString(36)}`)
  })

  test('widget-live.js is a classic script, plain ASCII, that hands startLive back on its own script element', () => {
    expect(liveSource).toMatch(/^[\x00-\x7e]*$/)
    expect(liveSource).not.toMatch(/\bimport\s*\(|\bimport\s+[\w{*]|\brequire\s*\(/)
    const handed: string[][] = []
    runInNewContext(liveSource, { document: { currentScript: { parleyRuntime: { loaded: (exports: object) => handed.push(Object.keys(exports)) } } } })
    expect(handed).toEqual([['startLive']])
  })

  test('is one self-contained classic script: no imports, no remote fonts, styles or scripts', () => {
    expect(source).not.toMatch(/\bimport\s*\(|\bimport\s+[\w{*]|\brequire\s*\(/)
    expect(source).not.toMatch(/@import|url\(|fonts\.googleapis|cdn\.|unpkg|jsdelivr/)
    const urls = source.match(/https?:\/\/[\w-]+(\.[\w-]+)+/g) ?? []
    // Only XML namespaces and examples inside warning texts.
    expect([...new Set(urls)].sort()).toEqual(['http://www.w3.org', 'https://chat.example.org'])
  })

  test('is plain ASCII, so a page with another charset cannot garble it', () => {
    expect(source).toMatch(/^[\x00-\x7e]*$/)
  })

  test('carries its stylesheet for the Shadow DOM', () => {
    expect(source).toContain(':host{all:initial}')
  })

  test('evaluates without window or document (server-side rendering) and does nothing', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined')
    new Function(source)()
    expect((globalThis as { ParleyWidget?: unknown }).ParleyWidget).toBeUndefined()
  })

  test('evaluates in an empty global scope, touching no browser global at load', () => {
    const warnings: unknown[] = []
    const sandbox = { console: { warn: (...args: unknown[]) => warnings.push(args) } }
    runInNewContext(source, sandbox)
    expect(Object.keys(sandbox)).toEqual(['console'])
    expect(warnings).toEqual([])
  })
})

describe('the built widget-chat.js (loaded by widget-live.js when the chat first opens)', () => {
  test('is one classic script, plain ASCII, with no imports and no Solid of its own', () => {
    const gzipped = Bun.gzipSync(new TextEncoder().encode(chatSource), { level: 9 }).length
    console.log(`widget-chat.js: ${(chatSource.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped`)
    expect(chatSource).toMatch(/^[\x00-\x7e]*$/)
    expect(chatSource).not.toMatch(/\bimport\s*\(|\bimport\s*[\w{*]|\bexport\s*[{*]|\brequire\s*\(/)
    // Solid's reactive core (one copy, shared with widget-live.js) is not in it: its marker symbol is in widget-live.js only.
    expect(liveSource).toContain('solid-track')
    expect(chatSource).not.toContain('solid-track')
    expect(chatSource.startsWith('(function($parleyRuntime$){')).toBe(true)
  })

  test("is asked for by widget-live.js with the hash of its bytes, so a cached older copy never runs with a newer widget-live.js", () => {
    expect(liveSource).toContain(`/widget-chat.js?v=${Bun.hash(chatSource).toString(36)}`)
  })

  test('takes every Solid export it uses from the runtime widget-live.js hands it, and hands back ChatWindow', () => {
    const asked = new Map<string, string[]>()
    const runtime = new Proxy(
      {},
      {
        get: (_, module: string) =>
          module === 'loaded'
            ? (exports: Record<string, unknown>) => asked.set('loaded', Object.keys(exports))
            : new Proxy({}, { get: (__, name: string) => (asked.set(module, [...(asked.get(module) ?? []), name]), () => ({})) }),
      },
    )
    runInNewContext(chatSource, { document: { currentScript: { parleyRuntime: runtime } } })
    expect(asked.get('loaded')).toEqual(['ChatWindow'])
    expect([...asked.keys()].sort()).toEqual(['loaded', 'solid-js', 'solid-js/web'])
    // widget-live.js carries each of those exports for it, under the names the chat script reads.
    for (const module of ['solid-js', 'solid-js/web']) {
      expect(asked.get(module)!.length).toBeGreaterThan(3)
      const handed = liveSource.match(new RegExp(`${JSON.stringify(module)}:\\{([^}]*)\\}`))?.[1]?.split(',').map((pair) => pair.split(':')[0] as string)
      expect([...new Set(asked.get(module))].sort()).toEqual([...new Set(handed)].sort())
    }
  })
})

describe('the built widget-chat.css', () => {
  const stylesheet = Bun.file(join(import.meta.dir, '../../dist/widget/widget-chat.css'))

  test('is plain ASCII with CSS escapes: the draft caret is the block character, not the text "u258d"', async () => {
    const css = await stylesheet.text()
    expect(css).toMatch(/^[\x00-\x7e]*$/)
    expect(css).not.toContain('\\u258d')
    // A CSS escape is a backslash, the hex code and one ending space.
    const caret = /\.msg\.draft \.text::after\{content: ?'([^']*)'/.exec(css)?.[1] ?? ''
    expect(caret.replace(/\\([0-9a-f]{1,6}) ?/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))).toBe('\u258d')
  })
})
