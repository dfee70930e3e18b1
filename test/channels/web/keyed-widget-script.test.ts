import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'

const built = await Bun.file(join(import.meta.dir, '../../../dist/widget/widget.js')).text()

/** What the script put on its own element, read by running its first statement against a stand-in element. */
function carried(script: string): { key: string; boot: { name: string; greeting_message: string | null; socket_path: string; widget_config: { primary_color: string } } } | null {
  if (script === built) return null
  const prefix = script.slice(0, script.length - built.length)
  expect(script.endsWith(built)).toBe(true)
  const element: { parleyBoot?: unknown } = {}
  new Function('document', prefix)({ currentScript: element })
  return element.parleyBoot as ReturnType<typeof carried>
}

describe('GET /widget.js?key=wk_...: the script with its configuration in front', () => {
  let app: TestApp
  let shop: WebChat
  beforeAll(async () => {
    app = testApp()
    shop = await setUpWebChat(app, { flow: null, web: { allowed_domains: ['shop.test'], greeting_message: 'Hi </script><b>', widget_config: { primary_color: '#112233' } } })
  })
  afterAll(() => app.close())

  const get = (key: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://localhost/widget.js?key=${encodeURIComponent(key)}`, { headers }))

  test("an allowed page (by its Referer) gets the configuration the config route would give, on the script's own element, cached privately for a minute", async () => {
    const response = await get(shop.widgetKey, { referer: 'https://shop.test/cart?x=1' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('private, max-age=60')
    expect(response.headers.get('vary')).toBe('Referer, Accept-Encoding')
    const text = await response.text()
    const config = await app.call('GET', `/widget/v1/config/${shop.widgetKey}`, { key: null, headers: { origin: 'https://shop.test' } })
    expect(carried(text)).toEqual({ key: shop.widgetKey, boot: config.body })
    // A name or greeting cannot close a script element or start markup: `<` is escaped.
    expect(text.slice(0, text.length - built.length)).not.toContain('<')
  })

  test('the same configuration is the same bytes: a strong ETag, 304 when fresh, gzip on ask', async () => {
    const first = await get(shop.widgetKey, { referer: 'https://shop.test/' })
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect((await get(shop.widgetKey, { referer: 'https://shop.test/other', 'if-none-match': etag })).status).toBe(304)
    const zipped = await get(shop.widgetKey, { referer: 'https://shop.test/', 'accept-encoding': 'gzip' })
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(new TextDecoder().decode(gunzipSync(new Uint8Array(await zipped.arrayBuffer())))).toBe(await first.text())
  })

  test('a changed configuration is in the next script at once (no stale copy kept by the server)', async () => {
    await app.call('PATCH', `/api/dev/v1/chatbots/${shop.chatbotId}/integrations/web`, { body: { widget_config: { primary_color: '#445566' } } })
    const text = await (await get(shop.widgetKey, { referer: 'https://shop.test/' })).text()
    expect(carried(text)?.boot.widget_config.primary_color).toBe('#445566')
  })

  test.each([
    ['a page the widget may not show on', { referer: 'https://evil.test/' }],
    ['no Referer (the page sends none)', {}],
    ['a Referer that is no address', { referer: 'not a url' }],
  ])('%s gets the plain script, which asks the config route and says why', async (_, headers) => {
    const response = await get(shop.widgetKey, headers)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(await response.text()).toBe(built)
  })

  test('an unknown key, a malformed one and a switched-off widget get the plain script', async () => {
    expect(await (await get('wk_unknownunknownunknown00', { referer: 'https://shop.test/' })).text()).toBe(built)
    expect(await (await get('nope', { referer: 'https://shop.test/' })).text()).toBe(built)
    const off = await setUpWebChat(app, { flow: null })
    await app.call('PATCH', `/api/dev/v1/chatbots/${off.chatbotId}/integrations/web`, { body: { is_active: false } })
    expect(await (await get(off.widgetKey, { referer: 'https://anywhere.test/' })).text()).toBe(built)
  })

  test('a key longer than any widget key is a clear 422 naming the query parameter', async () => {
    const response = await get(`wk_${'a'.repeat(300)}`)
    expect(response.status).toBe(422)
    expect(response.headers.get('content-type')).toContain('application/problem+json')
    expect(JSON.stringify(await response.json())).toContain('key')
  })
})
