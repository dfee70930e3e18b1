import { beforeAll, describe, expect, test } from 'bun:test'
import { admitWidget } from '../../../server/channels/web/admit-widget.ts'
import type { WebIntegration } from '../../../server/channels/web/web-directory.ts'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { WIDGET_CONFIG_DEFAULTS } from '../../../server/protocol/widget-config-defaults.ts'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'

const suite = socketSuite()

describe('one rule admits a widget to its configuration and to its socket', () => {
  let shop: WebChat
  let shopOff: WebChat
  let open: WebChat
  beforeAll(async () => {
    shop = await setUpWebChat(suite.server, { flow: null, web: { allowed_domains: ['shop.test'] } })
    shopOff = await setUpWebChat(suite.server, { flow: null, web: { allowed_domains: ['shop.test'] } })
    await suite.server.call('PATCH', `/api/dev/v1/chatbots/${shopOff.chatbotId}/integrations/web`, { body: { is_active: false } })
    open = await setUpWebChat(suite.server, { flow: null })
  })

  const unknownKey = 'wk_unknownunknownunknown00'
  const cases: [string, () => string, string | undefined, { status: number; code?: string; close?: number }][] = [
    ['an allowed page of an active integration', () => shop.widgetKey, 'https://shop.test', { status: 200 }],
    ['any page when allowed_domains is empty', () => open.widgetKey, 'https://anywhere.test', { status: 200 }],
    ['no Origin when allowed_domains is empty', () => open.widgetKey, undefined, { status: 200 }],
    ['an unknown key', () => unknownKey, 'https://shop.test', { status: 404, code: 'not_found', close: CloseCode.unknownWidgetKey }],
    ['a foreign page', () => shop.widgetKey, 'https://evil.test', { status: 403, code: 'origin_not_allowed', close: CloseCode.originNotAllowed }],
    ['no Origin when the list is not empty', () => shop.widgetKey, undefined, { status: 403, code: 'origin_not_allowed', close: CloseCode.originNotAllowed }],
    ['an allowed page of a switched-off integration', () => shopOff.widgetKey, 'https://shop.test', { status: 403, code: 'integration_inactive', close: CloseCode.integrationInactive }],
    // A foreign page learns nothing about whether the integration is switched on.
    ['a foreign page of a switched-off integration', () => shopOff.widgetKey, 'https://evil.test', { status: 403, code: 'origin_not_allowed', close: CloseCode.originNotAllowed }],
  ]

  for (const [name, key, origin, expected] of cases) {
    test(`${name}: the route and the socket give the same answer`, async () => {
      const response = await fetch(`${suite.server.origin}/widget/v1/config/${key()}`, { headers: origin ? { origin } : {} })
      const body = (await response.json()) as { code?: string; detail?: string }
      expect(response.status).toBe(expected.status)
      const client = await suite.connect(key(), origin)
      if (expected.status === 200) {
        await client.hello()
        return
      }
      expect(body.code).toBe(expected.code!)
      expect(await client.closedWith()).toEqual({ code: expected.close!, reason: body.detail! })
    })
  }
})

describe('admitWidget', () => {
  const integration: WebIntegration = {
    integrationId: 'int_1',
    chatbotId: 'bot_1',
    workspaceId: 'ws_1',
    isActive: true,
    name: 'Site',
    allowedDomains: ['shop.test'],
    widgetConfig: WIDGET_CONFIG_DEFAULTS,
    greetingMessage: null,
    identitySecret: null,
    defaultCountry: null,
  }
  const lookups: string[] = []
  const find = (key: string) => {
    lookups.push(key)
    return key === 'wk_shop' ? integration : null
  }

  test('an empty key is unknown without a lookup', () => {
    lookups.length = 0
    expect(admitWidget(find, '', 'https://shop.test')).toEqual({ admitted: false, refusal: 'unknown_widget_key', reason: 'no widget has this key' })
    expect(lookups).toEqual([])
  })

  test('an admitted page gets the integration', () => {
    expect(admitWidget(find, 'wk_shop', 'https://shop.test')).toEqual({ admitted: true, integration })
  })

  test('a huge Origin is quoted short enough for a close reason (123 bytes)', async () => {
    const admission = await admitWidget(find, 'wk_shop', `https://${'é'.repeat(5000)}.test`)
    expect(admission).toMatchObject({ admitted: false, refusal: 'origin_not_allowed' })
    if (admission.admitted) throw new Error('admitted')
    expect(Buffer.byteLength(admission.reason)).toBeLessThanOrEqual(123)
  })
})
