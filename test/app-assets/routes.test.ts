import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { cspDirective } from '../support/csp-directive.ts'
import { testApp } from '../support/test-app.ts'

const dist = join(import.meta.dir, '../../dist/app')
const builtScript = await Bun.file(join(dist, 'app.js')).text()
const builtStyles = await Bun.file(join(dist, 'app.css')).text()


describe('the desk app at /app', () => {
  const app = testApp()
  afterAll(() => app.close())
  const get = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://localhost${path}`, { headers }))
  const assetPaths = async () => {
    const html = await (await get('/app')).text()
    return {
      script: /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1] ?? '',
      styles: /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1] ?? '',
    }
  }

  test('/app and any path under it answer the same page, so deep links and reloads work', async () => {
    const paths = ['/app', '/app/', '/app/sign-in', '/app/c/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D?view=mine', '/app/setup', '/app/any/depth/at/all']
    const pages = await Promise.all(paths.map(async (path) => ({ path, response: await get(path) })))
    const first = await pages[0]!.response.clone().text()
    expect(first).toContain('<div id="app"></div>')
    for (const { response } of pages) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.text()).toBe(first)
    }
  })

  test('the page has nothing inline and runs under a strict policy: scripts and styles from this server only, no framing', async () => {
    const response = await get('/app/c/x')
    const html = await response.text()
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/)
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/)
    const policy = response.headers.get('content-security-policy')
    expect(cspDirective(policy, 'script-src')).toEqual(["'self'"])
    expect(cspDirective(policy, 'style-src')).toEqual(["'self'"])
    expect(cspDirective(policy, 'connect-src')).toEqual(["'self'"])
    expect(cspDirective(policy, 'frame-ancestors')).toEqual(["'none'"])
    expect(cspDirective(policy, 'object-src')).toEqual(["'none'"])
    // The pictures and sounds chatbots sent from https addresses show in the history.
    expect(cspDirective(policy, 'img-src')).toEqual(["'self'", 'data:', 'https:'])
    expect(cspDirective(policy, 'media-src')).toEqual(["'self'", 'https:'])
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })

  test('another page outside /app keeps the strict default (a path that merely starts with "app" is not the desk)', async () => {
    const { pagePolicy } = await import('../../server/http/security-headers.ts')
    expect(cspDirective(pagePolicy('/application'), 'img-src')).toEqual(["'self'", 'data:'])
    expect(cspDirective(pagePolicy('/app/x'), 'img-src')).toEqual(["'self'", 'data:', 'https:'])
  })

  test('the script and stylesheet are named by their content hash and cached for a year', async () => {
    const { script, styles } = await assetPaths()
    const hash = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('base64url').slice(0, 27)
    expect(script).toBe(`/app/assets/app-${hash(builtScript)}.js`)
    expect(styles).toBe(`/app/assets/app-${hash(builtStyles)}.css`)
    const js = await get(script)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await js.text()).toBe(builtScript)
    const css = await get(styles)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await css.text()).toBe(builtStyles)
  })

  test('assets are compressed as the browser accepts and revalidated by ETag (304)', async () => {
    const { script } = await assetPaths()
    const gzip = await app.fetch(new Request(`http://localhost${script}`, { headers: { 'accept-encoding': 'gzip' } }))
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString()).toBe(builtScript)
    const etag = gzip.headers.get('etag') as string
    const again = await get(script, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const page = await get('/app')
    expect((await get('/app/c/x', { 'if-none-match': page.headers.get('etag') as string })).status).toBe(304)
  })

  test('an asset of another build answers 404 problem+json that says to reload', async () => {
    const response = await get('/app/assets/app-0000000000000000000000000000.js')
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    expect((await response.json()).detail).toContain('reload')
  })
})
