import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { newSigningSecret } from '../../server/integrations/rest-api-integration.ts'
import { webhookSender } from '../../server/outbox/webhook-sender.ts'
import { type Lookup, outboundUrlPolicy } from '../../server/support/outbound-url.ts'
import { fakeTime } from './support/fake-time.ts'
import { webhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts'

const fixtures = new URL('./fixtures/', import.meta.url).pathname
const cert = await Bun.file(`${fixtures}receiver-test.cert.pem`).text()
const key = await Bun.file(`${fixtures}receiver-test.key.pem`).text()

/** A DNS that knows only the names a test gives it, and counts the questions. */
function playedDns(answers: Record<string, string[]>) {
  const asked: string[] = []
  const lookup: Lookup = async (host) => {
    asked.push(host)
    const addresses = answers[host]
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address }))
  }
  return { lookup, asked }
}

const secret = newSigningSecret()
const body = JSON.stringify({ type: 'message.created', data: { n: 1 } })
const never = new AbortController().signal

let receiver: WebhookReceiver
beforeEach(() => {
  receiver = webhookReceiver()
})
afterEach(() => receiver.stop())

function sender(allow: string[] = ['127.0.0.1'], lookup?: Lookup, time = fakeTime()) {
  return webhookSender({ policy: outboundUrlPolicy(allow, lookup), time, timeoutMs: 10_000, ca: cert })
}

describe('sending a webhook', () => {
  test('POSTs the body as JSON with Standard Webhooks headers that verify with the signing secret', async () => {
    const outcome = await sender()({ url: receiver.url, secret, id: 'evt_1', body }, never)
    expect(outcome).toEqual({ kind: 'response', status: 204, retryAfterMs: null, snippet: '' })
    const [got] = receiver.received
    expect(got?.body).toBe(body)
    expect(got?.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'evt_1', 'user-agent': expect.stringMatching(/^Parley-Webhooks\//) })
    expect(got?.headers['webhook-timestamp']).toMatch(/^\d{10}$/)
    expect(new Webhook(secret).verify(got!.body, got!.headers)).toEqual(JSON.parse(body))
  })

  test("reports the status and the start of the receiver's answer, as one line", async () => {
    receiver.respond(() => new Response(`line one\nline two ${'x'.repeat(5000)}`, { status: 500, headers: { 'retry-after': '30' } }))
    const outcome = await sender()({ url: receiver.url, secret, id: 'evt_1', body }, never)
    expect(outcome).toMatchObject({ kind: 'response', status: 500, retryAfterMs: 30_000 })
    const snippet = (outcome as { snippet: string }).snippet
    expect(snippet.startsWith('line one line two xxx')).toBe(true)
    expect(snippet.length).toBe(200)
  })

  test('does not follow a redirect', async () => {
    receiver.respond(() => new Response(null, { status: 302, headers: { location: `${receiver.url}/elsewhere` } }))
    const outcome = await sender()({ url: receiver.url, secret, id: 'evt_1', body }, never)
    expect(outcome).toMatchObject({ kind: 'response', status: 302 })
    expect(receiver.received).toHaveLength(1)
  })

  test('a closed port is a connection error', async () => {
    const closed = webhookReceiver()
    closed.stop()
    const outcome = await sender()({ url: closed.url, secret, id: 'evt_1', body }, never)
    expect(outcome.kind).toBe('network')
  })

  test('gives up on a receiver that does not answer once the timeout passes', async () => {
    receiver.respond('hang')
    const time = fakeTime()
    const sending = sender(['127.0.0.1'], undefined, time)({ url: receiver.url, secret, id: 'evt_1', body }, never)
    await receiver.waitFor(1)
    time.advance(10_000)
    expect(await sending).toEqual({ kind: 'timeout', afterMs: 10_000 })
  })

  test('a shutdown cuts an attempt short as interrupted', async () => {
    receiver.respond('hang')
    const shutdown = new AbortController()
    const sending = sender()({ url: receiver.url, secret, id: 'evt_1', body }, shutdown.signal)
    await receiver.waitFor(1)
    shutdown.abort()
    expect(await sending).toEqual({ kind: 'interrupted' })
  })
})

describe('where a webhook may go (SSRF)', () => {
  test('a loopback address outside PARLEY_OUTBOUND_ALLOW is refused without connecting', async () => {
    const outcome = await sender([])({ url: receiver.url, secret, id: 'evt_1', body }, never)
    expect(outcome.kind).toBe('refused')
    expect((outcome as { reason: string }).reason).toContain('a loopback address')
    expect(receiver.received).toHaveLength(0)
  })

  test('a name that resolves to a private address and one that does not resolve get the same answer, naming no address (and may resolve later)', async () => {
    const dns = playedDns({ 'hooks.example.com': ['93.184.215.14', '10.0.0.7'] })
    const refused = await sender([], dns.lookup)({ url: 'https://hooks.example.com/in', secret, id: 'evt_1', body }, never)
    const unknown = await sender([], dns.lookup)({ url: 'https://gone.example.com/in', secret, id: 'evt_1', body }, never)
    const reason = (refused as { reason: string }).reason
    expect(refused.kind).toBe('unresolved')
    expect(reason).toStartWith('the host hooks.example.com does not resolve to an address Parley may reach')
    expect(unknown).toEqual({ kind: 'unresolved', reason: reason.replaceAll('hooks.example.com', 'gone.example.com') })
    expect(JSON.stringify(refused)).not.toContain('10.0.0.7')
  })

  test('an allowed name that does not resolve is reported as such', async () => {
    const dns = playedDns({})
    const outcome = await sender(['gone.example.com'], dns.lookup)({ url: 'https://gone.example.com/in', secret, id: 'evt_1', body }, never)
    expect(outcome).toEqual({ kind: 'unresolved', reason: 'the host gone.example.com could not be resolved (ENOTFOUND)' })
  })

  test('a DNS answer that never comes counts against the timeout', async () => {
    const time = fakeTime()
    const silent: Lookup = () => new Promise(() => {})
    const sending = sender([], silent, time)({ url: 'https://slow.example.com/in', secret, id: 'evt_1', body }, never)
    time.advance(10_000)
    expect(await sending).toEqual({ kind: 'timeout', afterMs: 10_000 })
  })

  test('connects to the address that was checked, with the name in the Host header (no second DNS answer)', async () => {
    // rebind.test exists only in this played DNS: connecting by name would fail.
    const dns = playedDns({ 'rebind.test': ['127.0.0.1'] })
    const outcome = await sender(['127.0.0.1'], dns.lookup)({ url: `http://rebind.test:${receiver.port}/hook`, secret, id: 'evt_1', body }, never)
    expect(outcome).toMatchObject({ kind: 'response', status: 204 })
    expect(dns.asked).toEqual(['rebind.test'])
    expect(receiver.received[0]?.headers.host).toBe(`rebind.test:${receiver.port}`)
  })

  test('tries the checked addresses in turn until one can be reached', async () => {
    // The receiver listens on 127.0.0.1 only: ::1 refuses the connection (or has no route).
    const dns = playedDns({ 'dual.test': ['::1', '127.0.0.1'] })
    const outcome = await sender(['127.0.0.1', '::1'], dns.lookup)({ url: `http://dual.test:${receiver.port}/hook`, secret, id: 'evt_1', body }, never)
    expect(outcome).toMatchObject({ kind: 'response', status: 204 })
    expect(receiver.received).toHaveLength(1)
  })

  test('when no checked address can be reached, the attempt is a connection error', async () => {
    const closed = webhookReceiver()
    closed.stop()
    const dns = playedDns({ 'dual.test': ['::1', '127.0.0.1'] })
    const outcome = await sender(['127.0.0.1', '::1'], dns.lookup)({ url: `http://dual.test:${closed.port}/hook`, secret, id: 'evt_1', body }, never)
    expect(outcome.kind).toBe('network')
  })

  describe('over https', () => {
    const tls = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      tls: { cert, key },
      fetch: (request) => new Response(JSON.stringify({ host: request.headers.get('host') }), { status: 200 }),
    })
    afterAll(() => tls.stop(true))

    test('the pinned address is reached and its certificate verified against the name', async () => {
      const dns = playedDns({ 'receiver.test': ['127.0.0.1'] })
      const outcome = await sender(['127.0.0.1'], dns.lookup)({ url: `https://receiver.test:${tls.port}/hook`, secret, id: 'evt_1', body }, never)
      expect(outcome).toMatchObject({ kind: 'response', status: 200, snippet: `{"host":"receiver.test:${tls.port}"}` })
    })

    test('a certificate that does not cover the name fails the attempt', async () => {
      const dns = playedDns({ 'other.test': ['127.0.0.1'] })
      const outcome = await sender(['127.0.0.1'], dns.lookup)({ url: `https://other.test:${tls.port}/hook`, secret, id: 'evt_1', body }, never)
      expect(outcome).toEqual({ kind: 'network', error: 'ERR_TLS_CERT_ALTNAME_INVALID' })
    })
  })
})
