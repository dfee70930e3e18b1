import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { WIDGET_CONFIG_DEFAULTS } from '../../../server/protocol/widget-config-defaults.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'

describe('GET /widget/v1/config/{widget_key}', () => {
  let app: TestApp
  let shop: WebChat
  beforeAll(async () => {
    app = testApp()
    shop = await setUpWebChat(app, {
      flow: null,
      web: { allowed_domains: ['shop.test'], greeting_message: 'Hello!', widget_config: { primary_color: '#112233' } },
    })
  })
  afterAll(() => app.close())

  const get = (key: string, origin?: string) =>
    app.call('GET', `/widget/v1/config/${key}`, { key: null, headers: origin ? { origin } : {} })

  test('an allowed page gets the whole configuration, readable cross-origin and cacheable for a minute', async () => {
    const result = await get(shop.widgetKey, 'https://shop.test')
    expect(result.status).toBe(200)
    expect(result.body).toEqual({
      name: 'Site',
      greeting_message: 'Hello!',
      widget_config: { ...WIDGET_CONFIG_DEFAULTS, primary_color: '#112233' },
      socket_path: `/widget/v1/socket?key=${shop.widgetKey}`,
    })
    expect(result.headers.get('access-control-allow-origin')).toBe('https://shop.test')
    expect(result.headers.get('vary')).toBe('Origin')
    expect(result.headers.get('cache-control')).toBe('public, max-age=60')
  })

  test('another origin is refused with 403, and the widget may read why', async () => {
    const result = await get(shop.widgetKey, 'https://evil.test')
    expect(result.status).toBe(403)
    expect(result.body.code).toBe('origin_not_allowed')
    expect(result.headers.get('access-control-allow-origin')).toBe('https://evil.test')
  })

  test('no Origin is refused when the list is not empty', async () => {
    expect((await get(shop.widgetKey)).body.code).toBe('origin_not_allowed')
  })

  test('an unknown key answers 404, readable cross-origin', async () => {
    const result = await get('wk_unknownunknownunknown00', 'https://shop.test')
    expect(result.status).toBe(404)
    expect(result.headers.get('access-control-allow-origin')).toBe('https://shop.test')
  })

  test('a switched-off integration answers 403 integration_inactive', async () => {
    const off = await setUpWebChat(app, { flow: null })
    await app.call('PATCH', `/api/dev/v1/chatbots/${off.chatbotId}/integrations/web`, { body: { is_active: false } })
    const result = await get(off.widgetKey, 'https://anywhere.test')
    expect(result.status).toBe(403)
    expect(result.body.code).toBe('integration_inactive')
  })
})
