import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAX_ATTEMPTS } from '../../../server/outbox/retry-policy.ts'
import { fakeTime } from '../../outbox/support/fake-time.ts'
import { parleyOnFile } from '../rest-api/support/parley-on-file.ts'
import { postWebhook, setUpChatappChat, text, userMessage } from './support/chatapp-chat.ts'
import { type ChatappTestbed, chatappTestbed, summary, USER } from './support/chatapp-test.ts'
import { fakeGraphApi, GRAPH_ERRORS } from './support/fake-graph-api.ts'

const GREETING = ['Hi! How can I help?', '[buttons] Pick one: Sales | Support']

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function bedForTest(env: Record<string, string> = {}): ChatappTestbed {
  const bed = chatappTestbed(env)
  cleanups.push(() => bed.close())
  return bed
}

const deliveries = async (bed: ChatappTestbed, chatPath: (rest?: string) => string, query = '') =>
  (await bed.app.call('GET', chatPath(`/integrations/chatapp/deliveries${query}`))).body

describe("the provider's answers to Parley's messages", () => {
  test('a 5xx is tried again on the schedule with the same body; the messages behind it wait their turn', async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    bed.graph.respond(500)
    expect(await bed.say(chat, text('Hi'))).toEqual([])
    const log = await deliveries(bed, chat.path)
    expect(log.total).toBe(GREETING.length)
    const first = log.items.at(-1)
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, provider_message_id: null })
    expect(first.last_error).toMatch(/^HTTP 500: Graph API error 131000: Something went wrong \(Something went wrong\. Please try again later\.\) \[fbtrace_id [\w-]+\]$/)
    expect(log.items.slice(0, -1).map((item: any) => [item.status, item.attempts, item.next_attempt_at])).toEqual(Array(GREETING.length - 1).fill(['pending', 0, null]))

    bed.time.advance(10_000)
    expect(await bed.sent()).toEqual(GREETING)
    expect(bed.graph.received[1]?.json).toEqual(bed.graph.received[0]?.json)
    const done = (await deliveries(bed, chat.path)).items.at(-1)
    expect(done).toMatchObject({ status: 'accepted', attempts: 2, last_status_code: 200, last_error: null, provider_message_id: bed.graph.wamidOf(0) })
  })

  test("a rate limit (the provider's rate-limit code on a 400, or HTTP 429) is tried again, honouring Retry-After", async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    bed.graph.respond(GRAPH_ERRORS.rateLimit, { status: 429, code: 130429, message: 'Rate limit hit', retryAfter: '120' })
    expect(await bed.say(chat, text('Hi'))).toEqual([])
    expect((await deliveries(bed, chat.path)).items.at(-1)).toMatchObject({
      status: 'pending',
      last_status_code: 400,
      last_error: expect.stringContaining('Graph API error 130429: Rate limit hit (Cloud API message throughput has been reached.)'),
    })
    bed.time.advance(10_000)
    expect(await bed.sent()).toEqual([])
    // The second answer asked for 120 s, more than the schedule's minute.
    bed.time.advance(60_000)
    expect(await bed.sent()).toEqual([])
    bed.time.advance(60_000)
    expect(await bed.sent()).toEqual(GREETING)
    expect((await deliveries(bed, chat.path)).items.at(-1)).toMatchObject({ status: 'accepted', attempts: 3 })
  })

  test('outside the 24-hour window (131047) a message fails at once with the reason, and the next one goes out', async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    bed.graph.respond(GRAPH_ERRORS.reEngagement)
    expect(await bed.say(chat, text('Hi'))).toEqual(GREETING.slice(1))
    const failed = await deliveries(bed, chat.path, '?status=failed')
    expect(failed.total).toBe(1)
    expect(failed.items[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 400, payload: { text: { body: 'Hi! How can I help?' } } })
    expect(failed.items[0].last_error).toContain('Graph API error 131047: Re-engagement message (Message failed to send because more than 24 hours have passed')
    expect(failed.items[0].last_error).toContain('the user last wrote more than 24 hours ago')
    expect(bed.app.logLines.join('')).toContain('chatapp delivery failed')
  })

  test('a refused access token fails with a hint; a new token PATCHed in is used for what is still queued', async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    await bed.app.call('PATCH', chat.path('/integrations/chatapp'), { body: { access_token: 'EAAG-revoked-token-000000' } })
    await bed.say(chat, text('Hi'))
    const refused = (await deliveries(bed, chat.path, '?status=failed')).items
    expect(refused).toHaveLength(GREETING.length)
    expect(refused[0].last_status_code).toBe(401)
    expect(refused[0].last_error).toContain('Graph API error 190: Invalid OAuth access token - Cannot parse access token')
    expect(refused[0].last_error).toContain('PATCH the chatapp integration with a new one')

    bed.graph.respond(503)
    await bed.say(chat, text('pricing'))
    bed.graph.register(chat.phoneNumberId, 'EAAG-fresh-token-111111')
    await bed.app.call('PATCH', chat.path('/integrations/chatapp'), { body: { access_token: 'EAAG-fresh-token-111111' } })
    bed.time.advance(10_000)
    expect(await bed.sent()).toEqual(['What is your email?'])
    expect(bed.graph.received.at(-1)?.headers.authorization).toBe('Bearer EAAG-fresh-token-111111')
  })

  test(`the whole schedule ends in failure after ${MAX_ATTEMPTS} attempts`, async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    bed.graph.respond(...Array(MAX_ATTEMPTS).fill(502))
    await bed.say(chat, text('Hi'))
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      bed.time.advance(13 * 3_600_000)
      await bed.sent()
    }
    const failed = (await deliveries(bed, chat.path, '?status=failed')).items
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({ attempts: MAX_ATTEMPTS, last_status_code: 502 })
    expect(failed[0].last_error).toStartWith(`gave up after ${MAX_ATTEMPTS} attempts; the last: HTTP 502: Graph API error 131000`)
  })
})

describe('what happens to queued messages', () => {
  test('a restart delivers what was pending, in order, with the same bodies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-chatapp-restart-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const graph = fakeGraphApi()
    cleanups.push(() => graph.stop())
    const env = { PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url }
    const first = parleyOnFile(dir, env, { outbox: { time: fakeTime(), random: () => 0.5 } })
    const key = (await first.app.services.workspaces.createKey({ name: 'restart' })).key
    const firstCaller = { call: (method: string, path: string, options: any = {}) => first.call(method, path, { body: options.rawBody ? JSON.parse(options.rawBody) : options.body, key: options.key === null ? null : key }) }
    const chat = await setUpChatappChat(firstCaller, graph)
    graph.respond(503)
    expect((await postWebhook(firstCaller, chat, userMessage(chat, USER, text('Hi')))).status).toBe(200)
    await first.app.chatappOutbox.drain()
    expect(graph.accepted()).toHaveLength(0)
    const pendingBody = graph.received[0]?.json
    await first.stop()

    const second = parleyOnFile(dir, env, { outbox: { time: fakeTime(Date.now() + 60_000), random: () => 0.5 } })
    cleanups.push(() => second.stop())
    await second.app.chatappOutbox.drain()
    expect(graph.accepted().map(summary)).toEqual(GREETING)
    expect(graph.accepted()[0]).toEqual(pendingBody)
  })

  test('deleting the integration fails what is pending with the reason, and nothing more is sent', async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    bed.graph.respond(500)
    await bed.say(chat, text('Hi'))
    const rows = () => bed.app.db.query<{ status: string; last_error: string | null }, [string]>('SELECT status, last_error FROM outbox WHERE integration_id = ? ORDER BY seq').all(chat.integrationId)
    expect(rows().map((row) => row.status)).toEqual(Array(GREETING.length).fill('pending'))
    await bed.app.call('DELETE', chat.path(`/integrations/${chat.integrationId}`))
    bed.time.advance(3_600_000)
    expect(await bed.sent()).toEqual([])
    expect(rows()).toEqual(Array(GREETING.length).fill({ status: 'failed', last_error: 'the integration was deleted' }))
  })

  test('switching the integration off fails what is pending; the bot answers nothing more until it is on again', async () => {
    const bed = bedForTest()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    bed.graph.respond(500)
    await bed.say(chat, text('Hi'))
    await bed.app.call('PATCH', chat.path('/integrations/chatapp'), { body: { is_active: false } })
    bed.time.advance(3_600_000)
    expect(await bed.sent()).toEqual([])
    const failed = (await deliveries(bed, chat.path, '?status=failed')).items
    expect(failed.map((item: any) => item.last_error)).toEqual(Array(GREETING.length).fill('the integration was switched off (is_active: false)'))
    // An agent's message meanwhile is stored but not queued for a switched-off channel.
    const [conversation] = (await bed.app.call('GET', chat.path('/conversations'))).body.items
    expect((await bed.app.call('POST', chat.path(`/conversations/${conversation.id}/messages`), { body: { text: 'Still there?' } })).status).toBe(201)
    expect((await deliveries(bed, chat.path)).total).toBe(GREETING.length)
    await bed.app.call('PATCH', chat.path('/integrations/chatapp'), { body: { is_active: true } })
    expect((await bed.app.call('POST', chat.path(`/conversations/${conversation.id}/messages`), { body: { text: 'Back now.' } })).status).toBe(201)
    expect(await bed.sent()).toEqual(['Back now.'])
  })
})
