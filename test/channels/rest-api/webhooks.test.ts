import { afterEach, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { WebhookEvent } from '../../../server/channels/rest-api/model.ts'
import type { Lookup } from '../../../server/support/outbound-url.ts'
import { liveServer } from '../../support/live-server.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { fakeTime } from '../../outbox/support/fake-time.ts'
import { webhookReceiver, type WebhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import { parleyOnFile } from './support/parley-on-file.ts'
import { setUpRestApiChat, summary } from './support/rest-api-chat.ts'

const ALLOW = { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' }
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function receiverForTest(): WebhookReceiver {
  const receiver = webhookReceiver()
  cleanups.push(() => receiver.stop())
  return receiver
}

/** A Parley whose outbox runs on a clock the test moves (starting 100 s ago, so signatures stay within 5 minutes). */
function appOnFakeTime(env: Record<string, string> = ALLOW, dnsLookup?: Lookup) {
  const time = fakeTime(Date.now() - 100_000)
  const app = testApp(env, { outbox: { time, random: () => 0.5 }, dnsLookup })
  cleanups.push(() => app.close())
  return { app, time }
}

interface Caller {
  call(method: string, path: string, options?: { body?: unknown; key?: string | null }): Promise<{ status: number; body: any }>
}

const say = (app: Caller, chatbotId: string, body: Record<string, unknown>, key?: string) =>
  app.call('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/messages`, { body, key })

const deliveries = async (app: TestApp, chatbotId: string, query = '') =>
  (await app.call('GET', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/deliveries${query}`)).body

const outboxRows = (app: TestApp) =>
  app.db.query<{ status: string; last_error: string | null }, []>('SELECT status, last_error FROM outbox ORDER BY seq').all()

describe('a conversation through the rest-api channel', () => {
  test("the bot's answers reach webhook_url in order, each signed, never the user's own messages", async () => {
    const server = liveServer(ALLOW)
    cleanups.push(() => server.stop())
    const receiver = receiverForTest()
    const chat = await setUpRestApiChat(server, receiver.url)
    const post = (body: unknown) =>
      fetch(`${server.origin}${chat.path('/integrations/rest-api/messages')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })

    const first = await post({ user_id: 'user-1', text: 'What does it cost? pricing', client_id: 'm-1' })
    expect(first.status).toBe(202)
    await receiver.waitFor(3)
    expect((await post({ user_id: 'user-1', text: 'ada@lovelace.dev', client_id: 'm-2' })).status).toBe(202)
    await receiver.waitFor(5)

    expect(receiver.events().map(summary)).toEqual([
      'bot: Hi! How can I help?',
      'bot: Pick one',
      'bot: What is your email?',
      'bot: Thanks, we will write to ada@lovelace.dev.',
      '[bot → closed]',
    ])
    const { conversation_id } = (await first.json()) as { conversation_id: string }
    for (const { headers, body, json } of receiver.received) {
      expect(new Webhook(chat.secret).verify(body, headers)).toEqual(json)
      expect(Value.Check(WebhookEvent, json)).toBe(true)
      expect(json.data).toMatchObject({ chatbot_id: chat.chatbotId, integration_id: chat.integrationId, conversation_id, contact: { user_id: 'user-1' } })
    }
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(5)
  })

  test('retries after a 500 and a timeout, then succeeds, with the same webhook-id; later events wait their turn', async () => {
    const { app, time } = appOnFakeTime()
    const receiver = receiverForTest()
    const chat = await setUpRestApiChat(app, receiver.url)
    receiver.respond(500, 'hang')
    expect((await say(app, chat.chatbotId, { user_id: 'user-1', text: 'hello' })).status).toBe(202)
    await app.outbox.drain()
    expect(receiver.events().map(summary)).toEqual(['bot: Hi! How can I help?'])

    time.advance(10_000)
    const draining = app.outbox.drain()
    await receiver.waitFor(2)
    time.advance(10_000)
    await draining
    time.advance(60_000)
    await app.outbox.drain()

    expect(receiver.events().map(summary)).toEqual(['bot: Hi! How can I help?', 'bot: Hi! How can I help?', 'bot: Hi! How can I help?', 'bot: Pick one'])
    const ids = receiver.received.map((r) => r.headers['webhook-id'])
    expect(new Set(ids.slice(0, 3)).size).toBe(1)
    expect(new Set(ids).size).toBe(2)
    for (const { headers, body } of receiver.received) expect(() => new Webhook(chat.secret).verify(body, headers)).not.toThrow()

    const log = await deliveries(app, chat.chatbotId)
    expect(log.total).toBe(2)
    expect(log.items.at(-1)).toMatchObject({ id: ids[0], status: 'delivered', attempts: 3, last_status_code: 204, last_error: null, next_attempt_at: null })
  })

  test('a restart delivers what was pending, in order, with the same webhook-ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-restart-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const receiver = receiverForTest()
    receiver.otherwise(503)
    const firstTime = fakeTime(Date.now() - 100_000)
    const first = parleyOnFile(dir, ALLOW, { outbox: { time: firstTime, random: () => 0.5 } })
    const key = (await first.app.services.workspaces.createKey({ name: 'restart' })).key
    const chat = await setUpRestApiChat({ call: (method, path, options = {}) => first.call(method, path, { ...options, key }) }, receiver.url)
    expect((await say(first, chat.chatbotId, { user_id: 'user-1', text: 'pricing' }, key)).status).toBe(202)
    await first.app.outbox.drain()
    await first.stop()
    expect(receiver.received).toHaveLength(1)

    receiver.otherwise(204)
    const second = parleyOnFile(dir, ALLOW, { outbox: { time: fakeTime(firstTime.now() + 10_000), random: () => 0.5 } })
    cleanups.push(() => second.stop())
    await second.app.outbox.drain()
    expect(receiver.events().map(summary)).toEqual(['bot: Hi! How can I help?', 'bot: Hi! How can I help?', 'bot: Pick one', 'bot: What is your email?'])
    expect(receiver.received[1]?.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']!)
  })

  test("an agent's message and the handoff reach the webhook", async () => {
    const { app } = appOnFakeTime()
    const receiver = receiverForTest()
    const chat = await setUpRestApiChat(app, receiver.url, { flow: null })
    const { body } = await say(app, chat.chatbotId, { user_id: 'ada@lovelace.dev', text: 'Is anyone there?' })
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(0)
    const posted = await app.call('POST', chat.path(`/conversations/${body.conversation_id}/messages`), { body: { text: 'Yes, Sam here.', author: 'Sam' } })
    expect(posted.status).toBe(201)
    await app.outbox.drain()
    expect(receiver.events().map(summary)).toEqual(['agent: Yes, Sam here.', '[bot → handoff]'])
    expect(receiver.received[0]?.json.data).toMatchObject({ contact: { external_id: 'ada@lovelace.dev', user_id: 'ada@lovelace.dev' }, message: { author: 'Sam' } })
  })
})

describe('where webhooks may go', () => {
  /** The delivery log of a chatbot whose webhook_url names `host`, after its first attempt. */
  async function firstAttempt(dns: Lookup, host: string) {
    const receiver = receiverForTest()
    const { app } = appOnFakeTime({}, dns)
    const chat = await setUpRestApiChat(app, `http://${host}:${receiver.port}/hook`)
    await say(app, chat.chatbotId, { user_id: 'user-1', text: 'pricing' })
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(0)
    return (await deliveries(app, chat.chatbotId)).items.map((item: { status: string; last_error: string | null }) => ({ status: item.status, last_error: item.last_error }))
  }

  test.each(['127.0.0.1', '::ffff:127.0.0.1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '10.1.2.3'])(
    'a name whose DNS answer is %s gets nothing, and the log says what it says of a name that does not resolve, without the address',
    async (address) => {
      const dns: Lookup = async (host) => {
        if (host === 'hooks.example.com') return [{ address }]
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
      }
      const refused = await firstAttempt(dns, 'hooks.example.com')
      const unknown = await firstAttempt(dns, 'nothing.example.com')
      const tried = refused.find((item: { last_error: string | null }) => item.last_error)
      expect(tried.status).toBe('pending')
      expect(tried.last_error).toStartWith('webhook_url the host hooks.example.com does not resolve to an address Parley may reach')
      expect(tried.last_error).toContain('PARLEY_OUTBOUND_ALLOW')
      expect(JSON.stringify(refused)).not.toContain(address)
      expect(unknown).toEqual(JSON.parse(JSON.stringify(refused).replaceAll('hooks.example.com', 'nothing.example.com')))
    },
  )

  test('with the address in PARLEY_OUTBOUND_ALLOW the same name is delivered to, at the address checked', async () => {
    const receiver = receiverForTest()
    const dns: Lookup = async (host) => (host === 'hooks.example.com' ? [{ address: '127.0.0.1' }] : [])
    const { app } = appOnFakeTime(ALLOW, dns)
    const chat = await setUpRestApiChat(app, `http://hooks.example.com:${receiver.port}/hook`)
    await say(app, chat.chatbotId, { user_id: 'user-1', text: 'pricing' })
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(3)
    expect(receiver.received[0]?.headers.host).toBe(`hooks.example.com:${receiver.port}`)
  })
})

describe('integration changes and deliveries', () => {
  async function pendingChat(flow?: null) {
    const { app, time } = appOnFakeTime()
    const receiver = receiverForTest()
    receiver.otherwise(503)
    const chat = await setUpRestApiChat(app, receiver.url, flow === null ? { flow } : {})
    // Three events: the opening two and the answer to "pricing"; the first fails, the others wait their turn.
    const { body } = await say(app, chat.chatbotId, { user_id: 'user-1', text: 'pricing' })
    await app.outbox.drain()
    return { app, time, receiver, chat, conversationId: body.conversation_id as string }
  }

  test('deleting the integration drops its pending deliveries with the reason, and nothing more is sent', async () => {
    const { app, time, receiver, chat, conversationId } = await pendingChat()
    expect((await app.call('DELETE', chat.path(`/integrations/${chat.integrationId}`))).status).toBe(204)
    expect(outboxRows(app)).toEqual(Array(3).fill({ status: 'failed', last_error: 'the integration was deleted' }))
    await app.call('POST', chat.path(`/conversations/${conversationId}/messages`), { body: { text: 'anyone?' } })
    time.advance(86_400_000)
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(1)
    expect(outboxRows(app)).toHaveLength(3)
    expect((await say(app, chat.chatbotId, { user_id: 'user-1', text: 'hello?' })).status).toBe(404)
  })

  test('switching it off drops pending deliveries and refuses messages; switching it on again delivers new ones', async () => {
    const { app, time, receiver, chat, conversationId } = await pendingChat()
    const patch = (body: unknown) => app.call('PATCH', chat.path('/integrations/rest-api'), { body })
    expect((await patch({ is_active: false })).status).toBe(200)
    const log = await deliveries(app, chat.chatbotId, '?status=failed')
    expect(log.total).toBe(3)
    expect(log.items[0].last_error).toBe('the integration was switched off (is_active: false)')
    await app.call('POST', chat.path(`/conversations/${conversationId}/messages`), { body: { text: 'anyone?' } })
    expect((await say(app, chat.chatbotId, { user_id: 'user-1', text: 'hello?' })).body.code).toBe('integration_inactive')
    time.advance(86_400_000)
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(1)

    receiver.otherwise(204)
    expect((await patch({ is_active: true })).status).toBe(200)
    await app.call('POST', chat.path(`/conversations/${conversationId}/messages`), { body: { text: 'back again' } })
    await app.outbox.drain()
    expect(receiver.events().map(summary).slice(1)).toEqual(['agent: back again'])
    expect((await deliveries(app, chat.chatbotId, '?status=failed')).total).toBe(3)
  })

  test('a rotated secret signs the next attempt; the old one no longer verifies', async () => {
    const { app, time, receiver, chat } = await pendingChat()
    receiver.otherwise(204)
    const rotated = await app.call('PATCH', chat.path('/integrations/rest-api'), { body: { rotate_secret: true } })
    const secret = rotated.body.signing_secret as string
    expect(secret).not.toBe(chat.secret)
    time.advance(10_000)
    await app.outbox.drain()
    const retry = receiver.received[1]!
    expect(retry.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']!)
    expect(new Webhook(secret).verify(retry.body, retry.headers)).toEqual(retry.json)
    expect(() => new Webhook(chat.secret).verify(retry.body, retry.headers)).toThrow('No matching signature')
  })

  test('a new webhook_url receives the pending retries', async () => {
    const { app, time, receiver, chat } = await pendingChat()
    const moved = receiverForTest()
    expect((await app.call('PATCH', chat.path('/integrations/rest-api'), { body: { webhook_url: moved.url } })).status).toBe(200)
    time.advance(10_000)
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(1)
    expect(moved.events().map(summary)).toEqual(['bot: Hi! How can I help?', 'bot: Pick one', 'bot: What is your email?'])
    expect((await deliveries(app, chat.chatbotId)).items[0]).toMatchObject({ status: 'delivered', url: moved.url })
  })
})

describe('the delivery log', () => {
  test('lists deliveries newest first with status, attempts, last answer and payload, never the secret', async () => {
    const { app } = appOnFakeTime()
    const receiver = receiverForTest()
    receiver.respond(204, 500)
    const chat = await setUpRestApiChat(app, receiver.url)
    await say(app, chat.chatbotId, { user_id: 'user-1', text: 'pricing' })
    await app.outbox.drain()
    const result = await app.call('GET', chat.path('/integrations/rest-api/deliveries'))
    expect(result.status).toBe(200)
    expect(result.body.total).toBe(3)
    const [waiting, failing, delivered] = result.body.items
    expect(failing).toEqual({
      id: receiver.received[1]!.headers['webhook-id'],
      type: 'message.created',
      conversation_id: receiver.received[1]!.json.data.conversation_id,
      status: 'pending',
      attempts: 1,
      next_attempt_at: expect.any(String),
      last_attempt_at: expect.any(String),
      last_status_code: 500,
      last_error: 'HTTP 500: answer 500',
      url: receiver.url,
      created_at: expect.any(String),
      finished_at: null,
      payload: receiver.received[1]!.json,
    })
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: null, last_attempt_at: null, last_status_code: null, last_error: null })
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204, next_attempt_at: null, finished_at: expect.any(String) })
    expect(result.text).not.toContain(chat.secret.slice(6, 20))
    expect(result.text).not.toContain('whsec_')
    const deliveredOnly = await app.call('GET', chat.path('/integrations/rest-api/deliveries?status=delivered&limit=1'))
    expect(deliveredOnly.body).toMatchObject({ total: 1, items: [{ status: 'delivered' }] })
  })

  test("another workspace's chatbot, or one without the integration, answers 404; a bad filter 422", async () => {
    const { app } = appOnFakeTime()
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook')
    const bare = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Bare' } })).body.id
    expect((await app.call('GET', chat.path('/integrations/rest-api/deliveries'), { key: app.otherWorkspaceKey() })).status).toBe(404)
    expect((await app.call('GET', `/api/dev/v1/chatbots/${bare}/integrations/rest-api/deliveries`)).body).toMatchObject({ status: 404, detail: 'rest-api integration not found' })
    expect((await app.call('GET', chat.path('/integrations/rest-api/deliveries?status=lost'))).status).toBe(422)
  })
})
