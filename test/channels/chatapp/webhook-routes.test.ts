import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { liveServer } from '../../support/live-server.ts'
import { fakeGraphApi, type FakeGraphApi } from './support/fake-graph-api.ts'
import { type ChatappChat, postWebhook, setUpChatappChat, signatureOf, statusReport, text, userMessage, webhook } from './support/chatapp-chat.ts'

const APP_SECRET = '0123456789abcdef0123456789abcd3f'
const USER = '447911123456'

let graph: FakeGraphApi
const apps: { close(): Promise<void> }[] = []
beforeAll(() => {
  graph = fakeGraphApi()
})
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})
afterAll(() => graph.stop())

function appForTest(env: Record<string, string> = {}): TestApp {
  const app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url, ...env })
  apps.push(app)
  return app
}

const storedCount = (app: TestApp, chat: ChatappChat) =>
  app.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM chatapp_inbound WHERE integration_id = ?').get(chat.integrationId)?.n

describe('signatures (X-Hub-Signature-256) on the chatapp webhook', () => {
  test('with an app_secret, a body signed with it is stored', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    const posted = await postWebhook(app, chat, userMessage(chat, USER, text('hello')))
    expect(posted.status).toBe(200)
    expect(posted.body.messages).toEqual({ stored: 1, duplicates: 0 })
    expect(storedCount(app, chat)).toBe(1)
  })

  test.each([
    ['a signature by another secret', () => signatureOf('not-the-app-secret', '{}'), "X-Hub-Signature-256 does not match the body signed with this integration's app_secret"],
    ['no signature', () => '', 'X-Hub-Signature-256 is missing; this integration has an app_secret, so every webhook must be signed with it'],
    ['a signature in another form', () => 'sha1=0123456789abcdef0123456789abcdef01234567', 'X-Hub-Signature-256 must be "sha256=" followed by 64 hex digits'],
  ])('with an app_secret, %s is refused with 401 invalid_signature and nothing is stored', async (_, header, detail) => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    const posted = await postWebhook(app, chat, userMessage(chat, USER, text('hello')), { 'x-hub-signature-256': header() })
    expect(posted.status).toBe(401)
    expect(posted.headers?.get('content-type')).toContain('application/problem+json')
    expect(posted.body).toMatchObject({ status: 401, code: 'invalid_signature', detail })
    expect(storedCount(app, chat)).toBe(0)
  })

  test('the signature covers the exact bytes: the same JSON spaced differently does not match', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    const body = userMessage(chat, USER, text('hello'))
    const compact = JSON.stringify(body)
    const spaced = JSON.stringify(body, null, 2)
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signatureOf(APP_SECRET, compact) }
    expect((await app.call('POST', chat.hookPath, { rawBody: spaced, key: null, headers })).status).toBe(401)
    expect((await app.call('POST', chat.hookPath, { rawBody: compact, key: null, headers })).status).toBe(200)
  })

  test('the signature is checked over the bytes that reached the listener (a real HTTP POST, non-ASCII text)', async () => {
    const server = liveServer({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })
    apps.push({ close: () => server.stop() })
    const chat = await setUpChatappChat(server, graph, { appSecret: APP_SECRET })
    const body = JSON.stringify(userMessage(chat, USER, text('Grüße aus Köln 👋')))
    const post = (signature: string) =>
      fetch(`${server.origin}${chat.hookPath}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body })
    expect((await post(signatureOf(APP_SECRET, body))).status).toBe(200)
    expect((await post(signatureOf(APP_SECRET, body.replace('Köln', 'Koln')))).status).toBe(401)
  })

  test('without an app_secret no signature is needed, and a wrong one is not held against the body', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    expect((await postWebhook(app, chat, userMessage(chat, USER, text('one')))).status).toBe(200)
    expect((await postWebhook(app, chat, userMessage(chat, USER, text('two')), { 'x-hub-signature-256': 'sha256=00' })).status).toBe(200)
    expect(storedCount(app, chat)).toBe(2)
  })

  test('neither the app secret nor the access token reaches a log line', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    await postWebhook(app, chat, userMessage(chat, USER, text('hello')))
    await postWebhook(app, chat, userMessage(chat, USER, text('hello')), { 'x-hub-signature-256': signatureOf('wrong', 'x') })
    await app.chatappOutbox.drain()
    expect(graph.received.some((request) => request.headers.authorization === `Bearer ${chat.accessToken}`)).toBe(true)
    const logged = app.logLines.join('')
    expect(logged).toContain('/hooks/chatapp/')
    expect(logged).not.toContain(APP_SECRET)
    expect(logged).not.toContain(chat.accessToken)
  })
})

describe('which integration a webhook reaches', () => {
  test('an unknown integration, or one of another type, answers 404', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    const web = await app.call('POST', chat.path('/integrations/web'), { body: { name: 'Site' } })
    const body = JSON.stringify(userMessage(chat, USER, text('hello')))
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', web.body.id, 'not-an-id']) {
      const posted = await app.call('POST', `/hooks/chatapp/${id}`, { rawBody: body, key: null, headers: { 'content-type': 'application/json' } })
      expect(posted.status).toBe(404)
      expect(posted.body.code).toBe('not_found')
    }
  })

  test('a deleted integration answers 404 and stores nothing', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    expect((await app.call('DELETE', chat.path(`/integrations/${chat.integrationId}`))).status).toBe(204)
    expect((await postWebhook(app, chat, userMessage(chat, USER, text('hello')))).status).toBe(404)
    expect(app.db.query('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 })
  })

  test('a switched-off integration answers 403 integration_inactive and stores nothing; on again, it takes messages', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    await app.call('PATCH', chat.path('/integrations/chatapp'), { body: { is_active: false } })
    const refused = await postWebhook(app, chat, userMessage(chat, USER, text('hello')))
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('integration_inactive')
    expect(app.db.query('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 })
    // Without the secret nobody learns that it is switched off: the signature is checked first.
    const unsigned = await postWebhook(app, chat, userMessage(chat, USER, text('hello')), { 'x-hub-signature-256': '' })
    expect(unsigned.status).toBe(401)
    await app.call('PATCH', chat.path('/integrations/chatapp'), { body: { is_active: true } })
    expect((await postWebhook(app, chat, userMessage(chat, USER, text('hello')))).status).toBe(200)
  })
})

describe('bodies', () => {
  test('a change for another business number is acknowledged and ignored, so the provider does not retry it', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    const other = { ...chat, phoneNumberId: '999000111222' }
    const posted = await postWebhook(app, chat, userMessage(other, USER, text('hello')))
    expect(posted.status).toBe(200)
    expect(posted.body).toEqual({
      messages: { stored: 0, duplicates: 0 },
      statuses: { recorded: 0, duplicates: 0, unmatched: 0 },
      ignored: [{ path: '/entry/0/changes/0/value/messages/0', reason: 'it is for the business number "999000111222", not this integration\'s phone_number_id' }],
    })
    expect(storedCount(app, chat)).toBe(0)
  })

  test('fields and objects Parley does not handle are acknowledged with the reason', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        { id: '1', changes: [{ field: 'message_template_status_update', value: { event: 'APPROVED' } }] },
        { id: '2' },
        { id: '3', changes: [{ field: 'messages', value: { metadata: { phone_number_id: chat.phoneNumberId }, messages: [{ id: 'wamid.x', type: 'text' }] } }] },
      ],
    }
    const posted = await postWebhook(app, chat, body)
    expect(posted.status).toBe(200)
    expect(posted.body.ignored).toEqual([
      { path: '/entry/0/changes/0/field', reason: 'the field "message_template_status_update" is not one Parley handles (only "messages")' },
      { path: '/entry/1', reason: 'the entry has no list of changes' },
      { path: '/entry/2/changes/0/value/messages/0', reason: 'the message has no id, sender or type' },
    ])
    expect((await postWebhook(app, chat, { object: 'page', entry: [] })).body.ignored).toEqual([{ path: '/object', reason: 'object is "page", not "whatsapp_business_account"' }])
  })

  test('a body that is not a JSON object answers 422, one that is not JSON 400, and neither stores anything', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    const array = await postWebhook(app, chat, '[1, 2]')
    expect(array.status).toBe(422)
    expect(array.body.code).toBe('validation_failed')
    expect((await postWebhook(app, chat, 'null')).status).toBe(422)
    const broken = await postWebhook(app, chat, '{"object": ')
    expect(broken.status).toBe(400)
    expect(broken.body.code).toBe('malformed_json')
    expect(storedCount(app, chat)).toBe(0)
  })

  test('a sender that is not a phone number is acknowledged and not stored', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    const posted = await postWebhook(app, chat, userMessage(chat, 'US.13491208655302741918', text('hi')))
    expect(posted.status).toBe(200)
    expect(posted.body.ignored).toEqual([{ path: '/entry/0/changes/0/value/messages/0/from', reason: 'the sender is not a phone number Parley can answer' }])
  })

  test('messages and statuses in one body are all handled, in order', async () => {
    const app = appForTest()
    const chat = await setUpChatappChat(app, graph)
    const body = webhook(chat.phoneNumberId, {
      contacts: [{ profile: { name: 'Ada' }, wa_id: USER }],
      messages: [
        { from: USER, id: 'wamid.first', timestamp: '1700000000', type: 'text', text: { body: 'first' } },
        { from: USER, id: 'wamid.second', timestamp: '1700000001', type: 'text', text: { body: 'second' } },
      ],
      statuses: (statusReport(chat, 'wamid.unknown', 'read').entry[0]!.changes[0]!.value as any).statuses,
    })
    const posted = await postWebhook(app, chat, body)
    expect(posted.body).toEqual({ messages: { stored: 2, duplicates: 0 }, statuses: { recorded: 1, duplicates: 0, unmatched: 1 }, ignored: [] })
    const inbound = (await app.call('GET', chat.path('/integrations/chatapp/inbound'))).body.items
    expect(inbound.map((item: any) => [item.provider_message_id, item.sent_at])).toEqual([
      ['wamid.second', '2023-11-14T22:13:21.000Z'],
      ['wamid.first', '2023-11-14T22:13:20.000Z'],
    ])
  })
})

describe('the per-address limit on the public webhook route', () => {
  // 40 a minute: bursts of 10 per address. In-process calls all come from one address.
  const LIMITED = { PARLEY_PUBLIC_RATE_LIMIT: '40' }

  test('signed POSTs never count: the provider is not throttled however busy the number is', async () => {
    const app = appForTest(LIMITED)
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) statuses.push((await postWebhook(app, chat, statusReport(chat, `wamid.s${i}`, 'delivered'))).status)
    expect(statuses).toEqual(Array(25).fill(200))
  })

  test('refused POSTs (a bad signature, an unknown integration) count, and the 11th answers 429 with Retry-After', async () => {
    const app = appForTest(LIMITED)
    const chat = await setUpChatappChat(app, graph, { appSecret: APP_SECRET })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await postWebhook(app, chat, statusReport(chat, 'wamid.x', 'read'), { 'x-hub-signature-256': '' })).status)
    for (let i = 0; i < 5; i++) statuses.push((await postWebhook(app, { ...chat, hookPath: '/hooks/chatapp/01ARZ3NDEKTSV4RRFFQ69G5FAV' }, {})).status)
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(5).fill(404)])
    const limited = await postWebhook(app, chat, statusReport(chat, 'wamid.x', 'read'), { 'x-hub-signature-256': '' })
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe('rate_limited')
    expect(Number(limited.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // The provider's own, signed, still gets through.
    expect((await postWebhook(app, chat, statusReport(chat, 'wamid.x', 'read'))).status).toBe(200)
  })

  test('without an app_secret every POST is unsigned and counts', async () => {
    const app = appForTest(LIMITED)
    const chat = await setUpChatappChat(app, graph)
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await postWebhook(app, chat, statusReport(chat, `wamid.u${i}`, 'read'))).status)
    expect(statuses).toEqual([...Array(10).fill(200), 429])
  })
})
