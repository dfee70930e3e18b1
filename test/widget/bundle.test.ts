import { describe, expect, test } from 'bun:test'
import { runInNewContext } from 'node:vm'
import { join } from 'node:path'

const bundlePath = join(import.meta.dir, '../../dist/widget/widget.js')
const source = await Bun.file(bundlePath).text()

/** The most popular open-source bot embed is ~196 KB gzipped; ours must stay a small fraction. */
const BUDGET_GZIPPED = 20 * 1024

describe('the built widget.js', () => {
  test(`is at most ${BUDGET_GZIPPED / 1024} KB gzipped`, () => {
    const gzipped = Bun.gzipSync(new TextEncoder().encode(source), { level: 9 }).length
    console.log(`widget.js: ${(source.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped`)
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIPPED)
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
