import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { chooseEncoding } from '../../server/widget-assets/accept-encoding.ts'
import { demoPage } from '../../server/widget-assets/demo-page.ts'
import { isFresh, prepareAsset } from '../../server/widget-assets/widget-asset.ts'
import { testApp } from '../support/test-app.ts'

const built = await Bun.file(join(import.meta.dir, '../../dist/widget/widget.js')).text()

describe('GET /widget-chat.css', () => {
  const app = testApp()
  afterAll(() => app.close())
  const get = (headers: Record<string, string> = {}) => app.fetch(new Request('http://localhost/widget-chat.css', { headers }))
  const stylesheet = Bun.file(join(import.meta.dir, '../../dist/widget/widget-chat.css')).text()

  test("serves the open chat's stylesheet as CSS that any site may load, cached and revalidated like the script", async () => {
    const response = await get()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toBe(await stylesheet)
    const etag = response.headers.get('etag') as string
    expect((await get({ 'if-none-match': etag })).status).toBe(304)
    expect((await get({ 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe('br')
  })

  test('holds the chat window and message rules that widget.js leaves out, with no comments and nothing changed in values', async () => {
    const css = await stylesheet
    expect(css).toContain('.window{')
    expect(css).toContain('z-index: 2147483000')
    expect(css).not.toContain('/*')
    expect(built).not.toContain('.composer')
    expect(built).toContain('.chat-loading .window{visibility:hidden}')
  })
})

describe('GET /widget.js', () => {
  const app = testApp()
  afterAll(() => app.close())
  const get = (headers: Record<string, string> = {}) => app.fetch(new Request('http://localhost/widget.js', { headers }))

  test('serves the built widget as JavaScript that any site may load, cached five minutes', async () => {
    const response = await get()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.text()).toBe(built)
  })

  test('has a strong ETag derived from the content', async () => {
    const etag = (await get()).headers.get('etag')
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    const expected = new Bun.CryptoHasher('sha256').update(built).digest('base64url').slice(0, 27)
    expect(etag).toBe(`"${expected}"`)
  })

  test('answers 304 without a body when If-None-Match names the current version', async () => {
    const etag = (await get()).headers.get('etag') as string
    const fresh = await get({ 'if-none-match': etag })
    expect(fresh.status).toBe(304)
    expect(await fresh.text()).toBe('')
    expect(fresh.headers.get('etag')).toBe(etag)
    expect(fresh.headers.get('cache-control')).toBe('public, max-age=300')
    expect((await get({ 'if-none-match': `"old", W/${etag}` })).status).toBe(304)
    expect((await get({ 'if-none-match': '*' })).status).toBe(304)
  })

  test('answers 200 when If-None-Match names another version', async () => {
    const stale = await get({ 'if-none-match': '"an-older-build"' })
    expect(stale.status).toBe(200)
    expect(await stale.text()).toBe(built)
  })

  test('sends brotli when accepted, gzip otherwise, each with its own ETag', async () => {
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    const brBody = new Uint8Array(await br.arrayBuffer())
    expect(brotliDecompressSync(brBody).toString()).toBe(built)

    const gzip = await get({ 'accept-encoding': 'gzip' })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    const gzipBody = new Uint8Array(await gzip.arrayBuffer())
    expect(new TextDecoder().decode(Bun.gunzipSync(gzipBody))).toBe(built)

    expect(gzipBody.length).toBeLessThan(built.length / 2)
    const tags = new Set([br.headers.get('etag'), gzip.headers.get('etag'), (await get()).headers.get('etag')])
    expect(tags.size).toBe(3)
    // A cached gzip copy is still current when the browser asks again.
    expect((await get({ 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.get('etag') as string })).status).toBe(304)
  })

  test('is public in the OpenAPI document, tagged Widget', async () => {
    const { body } = await app.call('GET', '/api/dev/v1/openapi.json', { key: null })
    expect(body.paths['/widget.js'].get).toMatchObject({ tags: ['Widget'], security: [] })
    expect(body.paths['/'].get).toMatchObject({ tags: ['Widget'], security: [] })
  })
})

describe('GET /widget-live.js and /widget-chat.js (the scripts widget.js and widget-live.js add)', () => {
  const app = testApp()
  afterAll(() => app.close())
  const dist = join(import.meta.dir, '../../dist/widget')

  test.each(['widget-live.js', 'widget-chat.js'])('%s asked for with the hash of its bytes is cached for a year as immutable; any other version as briefly as widget.js', async (name) => {
    const script = await Bun.file(join(dist, name)).text()
    const get = (version: string) => app.fetch(new Request(`http://localhost/${name}?v=${version}`))
    const current = await get(Bun.hash(script).toString(36))
    expect(current.status).toBe(200)
    expect(current.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(current.headers.get('access-control-allow-origin')).toBe('*')
    expect(await current.text()).toBe(script)
    // A page still running an older widget.js gets today's bytes, which it must not keep for long.
    const older = await get('an-older-build')
    expect(older.headers.get('cache-control')).toBe('public, max-age=300')
    expect(await older.text()).toBe(script)
    expect(current.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
  })
})

describe('choosing the content coding', () => {
  test.each([
    [null, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
    ['GZIP', 'gzip'],
    ['identity', 'identity'],
  ])('Accept-Encoding %p gives %p', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected as never)
  })
})

describe('the compressed asset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-asset-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a changed file gets a new ETag, and an old ETag is no longer fresh', async () => {
    const file = join(dir, 'widget.js')
    writeFileSync(file, 'console.log(1)')
    const first = prepareAsset(file)
    writeFileSync(file, 'console.log(2)')
    const second = prepareAsset(file)
    expect(second.identity.etag).not.toBe(first.identity.etag)
    expect(isFresh(second, first.identity.etag)).toBe(false)
    expect(isFresh(second, (await second.variant('br')).etag)).toBe(true)
    expect(isFresh(second, null)).toBe(false)
  })

  test('a coding is compressed once, off the serving thread: first asks share one promise, later ones get the bytes at once', async () => {
    const asset = prepareAsset(new TextEncoder().encode('console.log("once")'.repeat(50)))
    const first = asset.variant('br')
    expect(first).toBeInstanceOf(Promise)
    expect(asset.variant('br')).toBe(first)
    const made = await first
    expect(asset.variant('br')).toBe(made)
    expect(new TextDecoder().decode(brotliDecompressSync(made.body))).toBe('console.log("once")'.repeat(50))
    expect(new TextDecoder().decode(Bun.gunzipSync((await asset.variant('gzip')).body))).toBe('console.log("once")'.repeat(50))
  })
})

describe('GET /: the demo page', () => {
  test('without a demo web integration: a friendly note, a link to the API reference, and no widget', async () => {
    const app = testApp()
    try {
      const page = await app.call('GET', '/', { key: null })
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.text).toContain('There is no demo chatbot with a web integration here')
      expect(page.text).toContain('href="/api/dev/v1/reference"')
      expect(page.text).not.toContain('<script')
    } finally {
      app.close()
    }
  })

  test("after first start: embeds the demo chatbot's widget; once its web integration is gone, the note instead", async () => {
    const app = testApp()
    try {
      const workspaceId = (await app.services.workspaces.authenticate(app.key)) as string
      const demo = await app.services.demo.create(workspaceId)
      const page = await app.call('GET', '/', { key: null })
      expect(page.text).toContain(`<script src="/widget.js?key=${demo.widgetKey}" data-widget-key="${demo.widgetKey}" async></script>`)
      const web = await app.call('GET', `/api/dev/v1/chatbots/${demo.chatbotId}/integrations/web`)
      await app.call('DELETE', `/api/dev/v1/chatbots/${demo.chatbotId}/integrations/${web.body.id}`)
      const after = await app.call('GET', '/', { key: null })
      expect(after.text).not.toContain('<script')
      expect(after.text).toContain('There is no demo chatbot with a web integration here')
    } finally {
      await app.close()
    }
  })

  test('with a demo widget key: embeds the widget from this server and shows the snippet with the public URL, escaped', () => {
    const html = demoPage('wk_demo123456789012345678', 'https://chat.acme.io')
    expect(html).toContain('<script src="/widget.js?key=wk_demo123456789012345678" data-widget-key="wk_demo123456789012345678" async></script>')
    // Pasted into another site, the snippet must load the script from this server.
    expect(html).toContain(
      '&#60;script src=&#34;https://chat.acme.io/widget.js?key=wk_demo123456789012345678&#34; data-widget-key=&#34;wk_demo123456789012345678&#34; async&#62;&#60;/script&#62;',
    )
    expect(html).toContain('href="/api/dev/v1/reference"')
    // The page itself loads nothing from elsewhere (the snippet is text, escaped).
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//)
  })

  test('links to the desk and the console, with or without a demo', () => {
    for (const html of [demoPage('wk_demo123456789012345678', 'https://chat.acme.io'), demoPage(null, 'https://chat.acme.io')]) {
      expect(html).toContain('<a href="/app">desk</a>')
      expect(html).toContain('<a href="/app/console">console</a>')
    }
  })

  test('escapes a key it did not make itself', () => {
    expect(demoPage('wk_"><script>alert(1)</script>', 'http://localhost:3000')).not.toContain('<script>alert(1)')
  })
})
