import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SAMPLE } from '../attachments/sample-files.ts'
import { billingFlow } from '../autopilot/support/agent-chat.ts'
import { DeskClient } from '../desk/support/desk-client.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { freePort } from '../support/free-port.ts'
import { QueuedSocket } from '../support/queued-socket.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { caddy, nginx, type ProxyKind, type RunningProxy } from './support/reverse-proxies.ts'

/**
 * dist/parley behind real Caddy and nginx (Debian's packages) running the files in deploy/
 * as shipped, over HTTPS on 127.0.0.1: what a VPS runs. Parley trusts 127.0.0.1, where the
 * proxy connects from; the test's clients connect from 127.0.0.2 when their address matters.
 */

const SITE = 'https://shop.example'
const ANSWER = 'Your invoice of March is paid; the receipt is on its way by e-mail.'
const TEN_MIB = 10 * 1024 * 1024

class ProxiedWidget extends WidgetClient {
  static async through(proxy: RunningProxy, widgetKey: string): Promise<ProxiedWidget> {
    const url = `${proxy.origin.replace('https:', 'wss:')}/widget/v1/socket?key=${widgetKey}`
    const client = new ProxiedWidget(new WebSocket(url, { headers: { origin: SITE }, tls: { ca: proxy.ca } } as never))
    await QueuedSocket.settled(client.socket)
    return client
  }
}

class ProxiedDesk extends DeskClient {
  static async through(proxy: RunningProxy, cookie: string): Promise<ProxiedDesk> {
    const client = new ProxiedDesk(new WebSocket(`${proxy.origin.replace('https:', 'wss:')}/app/socket`, { headers: { cookie, origin: proxy.origin }, tls: { ca: proxy.ca } } as never))
    await QueuedSocket.settled(client.socket)
    return client
  }
}

/** A request from 127.0.0.2 (the proxy and Parley see a client other than themselves). */
function fromOtherAddress(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; ca?: string }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? https.request : (require('node:http') as typeof import('node:http')).request
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: target.hostname, port: Number(target.port), path: `${target.pathname}${target.search}`, method: options.method ?? 'GET', headers: options.headers, localAddress: '127.0.0.2', ca: options.ca },
      (answer) => {
        let body = ''
        answer.on('data', (chunk) => (body += chunk))
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }))
      },
    )
    sent.on('error', reject)
    sent.end(options.body)
  })
}

for (const kind of [caddy, nginx] as ProxyKind[]) {
  describe(`${kind.name} in front of dist/parley, with deploy/ as shipped`, () => {
    const work = mkdtempSync(join(tmpdir(), `parley-${kind.name.toLowerCase()}-`))
    let modelDone = 0
    const model = fakeChatCompletions(() => ({ text: ANSWER, fragment: 6, chunkDelayMs: 80, onSent: () => (modelDone = performance.now()) }))
    let parley: RunningParley
    let proxy: RunningProxy
    let key = ''
    let widgetKey = ''
    const api = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${proxy.origin}/api/dev/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        tls: { ca: proxy.ca },
      })
      const text = await answer.text()
      if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`)
      return text ? JSON.parse(text) : undefined
    }
    /** Parley's request log line for a request id: what it knew of the request. */
    const logged = async (requestId: string) => {
      for (let waited = 0; waited < 5000; waited += 20) {
        const line = parley
          .output()
          .split('\n')
          .find((row) => row.includes(`"request_id":"${requestId}"`))
        if (line) return JSON.parse(line) as { client_ip: string; status: number }
        await Bun.sleep(20)
      }
      throw new Error(`no log line for ${requestId}`)
    }

    beforeAll(async () => {
      const proxyPort = freePort()
      parley = await runParley([compiledParley()], {
        PARLEY_DATA_DIR: join(work, 'data'),
        PORT: String(freePort()),
        PARLEY_PUBLIC_URL: `https://127.0.0.1:${proxyPort}`,
        PARLEY_TRUSTED_PROXIES: '127.0.0.1',
        PARLEY_OUTBOUND_ALLOW: '127.0.0.1',
      })
      key = /shown this once:\s+(pk_[0-9A-Za-z]+)/.exec(parley.output())?.[1] as string
      proxy = await kind.start(Number(new URL(parley.url).port), proxyPort)
      const bot = await api('POST', '/chatbots', { name: 'Billing' })
      await api('PATCH', `/chatbots/${bot.id}`, { llm: { base_url: model.baseUrl, model: 'fake-1' } })
      const flow = await api('POST', `/chatbots/${bot.id}/flows`, { name: 'Billing', type: 'conversation', flow: billingFlow(null) })
      await api('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)
      widgetKey = (await api('POST', `/chatbots/${bot.id}/integrations/web`, { name: 'Shop', allowed_domains: ['shop.example'] })).config.widget_key
    }, 60_000)
    afterAll(async () => {
      await proxy?.stop()
      await parley?.stop()
      model.stop()
      rmSync(work, { recursive: true, force: true })
    })

    test('the widget socket carries a visitor, and the agent answer streams to it piece by piece', async () => {
      const visitor = await ProxiedWidget.through(proxy, widgetKey)
      await visitor.hello({ page_url: `${SITE}/billing` })
      visitor.send({ type: 'message', client_id: 'q1', text: 'Is my invoice paid?' })
      const draft = await visitor.next('draft', 10_000)
      const firstPieceAt = performance.now()
      const answer = await visitor.next('message', 10_000).then(async (first) => (first.message.role === 'bot' ? first : visitor.next('message', 10_000)))
      const deltas = visitor.received.filter((frame) => frame.type === 'draft_delta')
      visitor.close()
      expect(answer.message).toMatchObject({ id: draft.message_id, role: 'bot', content: { kind: 'text', text: ANSWER } })
      // The first piece reached the visitor while the model was still writing the rest.
      expect(firstPieceAt).toBeLessThan(modelDone)
      expect(deltas.length).toBeGreaterThanOrEqual(2)
    }, 30_000)

    test('the desk socket: a person signed in through the proxy sees a visitor write', async () => {
      const invited = await api('POST', '/users', { email: 'ada@acme.io', display_name: 'Ada', role: 'admin' })
      const accepted = await fetch(`${proxy.origin}/api/dev/v1/auth/accept-invite`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: proxy.origin },
        body: JSON.stringify({ token: invited.invite.url.split('#token=')[1], password: 'correct horse battery staple' }),
        tls: { ca: proxy.ca },
      })
      expect(accepted.status).toBe(200)
      const cookie = (accepted.headers.get('set-cookie') as string).split(';')[0] as string
      const desk = await ProxiedDesk.through(proxy, cookie)
      expect(desk.isOpen).toBe(true)
      const visitor = await ProxiedWidget.through(proxy, widgetKey)
      await visitor.hello()
      visitor.send({ type: 'message', client_id: 'd1', text: 'A question for a person' })
      const seen = await desk.next((frame) => JSON.stringify(frame).includes('A question for a person'), 10_000)
      expect(seen).toBeDefined()
      desk.close()
      visitor.close()
    }, 30_000)

    test('a 10 MiB upload goes through, and comes back whole', async () => {
      const visitor = await ProxiedWidget.through(proxy, widgetKey)
      const token = (await visitor.hello()).upload_token
      const file = new Uint8Array(TEN_MIB).fill(0x20)
      file.set(SAMPLE.pdf)
      const stored = await fetch(`${proxy.origin}/widget/v1/attachments?key=${widgetKey}&client_id=up1&filename=contract.pdf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: SITE, 'content-type': 'application/pdf' },
        body: file,
        tls: { ca: proxy.ca },
      })
      const text = await stored.text()
      expect([stored.status, text.slice(0, 200)]).toEqual([201, text.slice(0, 200)])
      const url = JSON.parse(text).message.content.media.url as string
      expect(url.startsWith(`${proxy.origin}/attachments/`)).toBe(true)
      const back = new Uint8Array(await (await fetch(url, { tls: { ca: proxy.ca } })).arrayBuffer())
      expect(back.byteLength).toBe(TEN_MIB)
      expect(Bun.hash(back)).toBe(Bun.hash(file))
      visitor.close()
    }, 60_000)

    test("Parley sees the client's own address through the proxy, whatever X-Forwarded-For the client forged", async () => {
      const through = await fromOtherAddress(`${proxy.origin}/healthz`, { ca: proxy.ca, headers: { 'x-request-id': `${kind.name}-via-proxy`, 'x-forwarded-for': '203.0.113.66', forwarded: 'for=198.51.100.77' } })
      expect(through.status).toBe(200)
      expect((await logged(`${kind.name}-via-proxy`)).client_ip).toBe('127.0.0.2')
      const signedIn = await fromOtherAddress(`${proxy.origin}/api/dev/v1/auth/sign-in`, {
        method: 'POST',
        ca: proxy.ca,
        headers: { 'content-type': 'application/json', origin: proxy.origin, 'x-forwarded-for': '203.0.113.66' },
        body: JSON.stringify({ email: 'ada@acme.io', password: 'correct horse battery staple' }),
      })
      expect(signedIn.status).toBe(200)
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0] as string
      const sessions = await (await fetch(`${proxy.origin}/api/dev/v1/auth/sessions`, { headers: { cookie, origin: proxy.origin }, tls: { ca: proxy.ca } })).json()
      expect(sessions.items.find((session: { current: boolean }) => session.current).address).toBe('127.0.0.2')
    }, 30_000)

    test('a forged X-Forwarded-For sent straight to Parley, from an address it does not trust, is ignored', async () => {
      const direct = await fromOtherAddress(`${parley.url}/healthz`, { headers: { 'x-request-id': `${kind.name}-forged`, 'x-forwarded-for': '203.0.113.66' } })
      expect(direct.status).toBe(200)
      expect((await logged(`${kind.name}-forged`)).client_ip).toBe('127.0.0.2')
    })
  })
}
