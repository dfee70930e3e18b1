import { afterAll, describe, expect, test } from 'bun:test'
import { addressGroup } from '../../server/http/client-address.ts'
import { activePerson, browser, cookieOf, ORIGIN, PASSWORD } from '../people/support/people-context.ts'
import { liveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'

describe('the address group a per-address count uses', () => {
  test('an IPv4 address is itself, also when it comes IPv4-mapped', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7')
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressGroup('::FFFF:127.0.0.1')).toBe('127.0.0.1')
    expect(addressGroup('unknown')).toBe('unknown')
  })

  test('every IPv6 address of one /64 counts as one, however it is written', () => {
    const group = '2001:db8:0:1::/64'
    for (const address of ['2001:db8:0:1::1', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0DB8:0000:0001:0:0:0:2', '2001:db8::1:abcd:0:0:1', '2001:db8:0:1::9%eth0']) {
      expect(addressGroup(address)).toBe(group)
    }
    expect(addressGroup('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64')
    expect(addressGroup('::1')).toBe('0:0:0:0::/64')
    expect(addressGroup('2001:db8::')).toBe('2001:db8:0:0::/64')
    expect(addressGroup('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64')
  })
})

/**
 * Over real sockets from 127.0.0.1: with PARLEY_TRUSTED_PROXIES=127.0.0.1 this test is a proxy
 * and its X-Forwarded-For names the client; without it, the same header is a forgery and the
 * client is 127.0.0.1. Every per-address count, the request log, the session list and the
 * desk's context panel must agree.
 */
describe('behind a trusted proxy every per-address decision uses the forwarded client', () => {
  const behind = liveServer({ PARLEY_TRUSTED_PROXIES: '127.0.0.1', PARLEY_PUBLIC_RATE_LIMIT: '40', PARLEY_AUTH_FAILURE_LIMIT: '3', PARLEY_PUBLIC_URL: 'http://parley.test' })
  const direct = liveServer({ PARLEY_PUBLIC_RATE_LIMIT: '40', PARLEY_AUTH_FAILURE_LIMIT: '3', PARLEY_PUBLIC_URL: 'http://parley.test' })
  afterAll(async () => {
    await behind.stop()
    await direct.stop()
  })
  const from = (client: string) => ({ 'x-forwarded-for': `192.0.2.250, ${client}` })

  test('the public routes count each forwarded client apart; forged from an untrusted peer, all count as one', async () => {
    for (const [server, separate] of [[behind, true], [direct, false]] as const) {
      const chat = await setUpWebChat(server, { flow: null })
      const config = (client: string) => fetch(`${server.origin}/widget/v1/config/${chat.widgetKey}`, { headers: from(client) }).then((answer) => answer.status)
      for (let i = 0; i < 10; i++) expect(await config('198.51.100.1')).toBe(200)
      expect(await config('198.51.100.1')).toBe(429)
      expect(await config('198.51.100.2')).toBe(separate ? 200 : 429)
    }
  })

  test('the wrong-key throttle counts each forwarded client apart', async () => {
    for (const [server, separate] of [[behind, true], [direct, false]] as const) {
      const wrongKey = (client: string) =>
        fetch(`${server.origin}/api/dev/v1/chatbots`, { headers: { authorization: 'Bearer pk_wrong', ...from(client) } }).then((answer) => answer.status)
      for (let i = 0; i < 3; i++) expect(await wrongKey('198.51.100.3')).toBe(401)
      expect(await wrongKey('198.51.100.3')).toBe(429)
      expect(await wrongKey('198.51.100.4')).toBe(separate ? 401 : 429)
    }
  })

  test('request log lines and the session list name the forwarded client', async () => {
    for (const [server, expected] of [[behind, '198.51.100.5'], [direct, '127.0.0.1']] as const) {
      await activePerson(server, 'ada@acme.io', 'admin')
      const signedIn = await fetch(`${server.origin}/api/dev/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, ...from('198.51.100.5') },
        body: JSON.stringify({ email: 'ada@acme.io', password: PASSWORD }),
      })
      expect(signedIn.status).toBe(200)
      const cookie = cookieOf(signedIn.headers.get('set-cookie'))
      const sessions = await (await fetch(`${server.origin}/api/dev/v1/auth/sessions`, { headers: browser(cookie) })).json()
      expect(sessions.items.find((session: { current: boolean }) => session.current).address).toBe(expected)
      const logged = server.logLines.map((line) => JSON.parse(line)).findLast((line) => line.path === '/api/dev/v1/auth/sign-in')
      expect(logged.client_ip).toBe(expected)
    }
  })

  test("the desk's context panel shows the widget visitor's forwarded address", async () => {
    for (const [server, expected] of [[behind, '2001:db8::7'], [direct, '127.0.0.1']] as const) {
      const chat = await setUpWebChat(server)
      const visitor = await WidgetClient.connect(server.socketUrl(chat.widgetKey), 'https://shop.test', from('[2001:db8::7]:50000'))
      await visitor.hello({ page_url: 'https://shop.test/pricing' })
      visitor.send({ type: 'message', client_id: 'c1', text: 'hello' })
      await visitor.next('message')
      visitor.close()
      const conversation = (await server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations`)).body.items[0]
      let context: any
      for (let tries = 0; tries < 50 && !context?.visitor?.address; tries++) {
        await Bun.sleep(20)
        context = (await server.call('GET', `/api/dev/v1/desk/conversations/${conversation.id}/context`)).body
      }
      expect(context.visitor).toMatchObject({ page_url: 'https://shop.test/pricing', address: expected })
    }
  })
})
