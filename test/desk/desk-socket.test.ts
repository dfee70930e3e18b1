import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import { type App, createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { listen } from '../../server/listen.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { activePerson, ORIGIN, signIn } from '../people/support/people-context.ts'
import { liveServer, type LiveServer } from '../support/live-server.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { DeskClient } from './support/desk-client.ts'
import { openConversation } from './support/desk-context.ts'

const deskUrl = (port: number, since?: number) => `ws://127.0.0.1:${port}/app/socket${since === undefined ? '' : `?since=${since}`}`

describe('the desk socket', () => {
  let server: LiveServer
  let chat: WebChat
  let ada: { id: string; cookie: string }
  let sam: { id: string; cookie: string }
  const desks: DeskClient[] = []
  const open = async (cookie: string, since?: number, origin = ORIGIN) => {
    const desk = await DeskClient.connect(deskUrl(server.server.port as number, since), { cookie, origin })
    desks.push(desk)
    return desk
  }

  beforeAll(async () => {
    server = liveServer()
    ada = await activePerson(server, 'ada@acme.io', 'admin')
    sam = await activePerson(server, 'sam@acme.io', 'agent')
    chat = await setUpWebChat(server)
  })
  afterAll(async () => {
    for (const desk of desks) desk.close()
    await server.stop()
  })

  test('is refused without the session cookie, without our Origin, and to an API key', async () => {
    const port = server.server.port as number
    const refused = async (headers: Record<string, string>, query = '') => (await fetch(`http://127.0.0.1:${port}/app/socket${query}`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13', ...headers } }))
    const noCookie = await refused({ origin: ORIGIN })
    expect([noCookie.status, (await noCookie.json()).code]).toEqual([401, 'unauthorized'])
    const noOrigin = await refused({ cookie: ada.cookie })
    expect([noOrigin.status, (await noOrigin.json()).code]).toEqual([403, 'origin_refused'])
    const foreign = await refused({ cookie: ada.cookie, origin: 'https://evil.example' })
    expect([foreign.status, (await foreign.json()).code]).toEqual([403, 'origin_refused'])
    const key = await refused({ origin: ORIGIN, authorization: `Bearer ${server.key}` })
    expect(key.status).toBe(401)
    const ended = await refused({ origin: ORIGIN, cookie: 'parley_session=ps_notasessionatallnotasessionatallnotasess' })
    expect(ended.status).toBe(401)
    const badSince = await refused({ origin: ORIGIN, cookie: ada.cookie }, '?since=1e3')
    expect([badSince.status, (await badSince.json()).code]).toEqual([422, 'validation_failed'])
  })

  test("a visitor's message reaches an open desk, numbered", async () => {
    const desk = await open(ada.cookie)
    const ready = await desk.next('ready')
    expect(ready.person).toEqual({ id: ada.id, display_name: 'ada' })
    const opened = openConversation(server, chat, { says: 'where is my parcel' })
    const appeared = await desk.next('conversation')
    expect(appeared).toMatchObject({ conversation_id: opened.id, chatbot_id: chat.chatbotId, change: 'opened', status: 'bot', assignee_id: null })
    expect(appeared.seq).toBe(ready.seq + 1)
    const said = await desk.next((frame) => frame.type === 'message' && frame.message.role === 'visitor')
    expect(said).toMatchObject({ conversation_id: opened.id, chatbot_id: chat.chatbotId, message: { content: { kind: 'text', text: 'where is my parcel' } } })
    expect(said.seq).toBeGreaterThan(ready.seq)
  })

  test("another workspace's desk hears nothing of this one", async () => {
    const otherKey = server.otherWorkspaceKey()
    const eve = await activePerson(server, 'eve@other.io', 'admin', otherKey)
    const elsewhere = await open(eve.cookie)
    await elsewhere.next('ready')
    const here = await open(ada.cookie)
    await here.next('ready')
    const opened = openConversation(server, chat, { says: 'for this workspace only' })
    await here.next((frame) => frame.type === 'message' && frame.conversation_id === opened.id)
    elsewhere.send({ type: 'viewing', conversation_id: opened.id })
    expect(await elsewhere.next('error')).toMatchObject({ code: 'not_found' })
    expect(elsewhere.received).toEqual([])
  })

  test('typing goes both ways: desk to widget, widget to desk', async () => {
    const desk = await open(ada.cookie)
    await desk.next('ready')
    const visitor = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    await visitor.hello({ page_url: 'https://shop.example/checkout' })
    visitor.send({ type: 'message', client_id: 'c1', text: 'hello' })
    const conversationId = (await visitor.next('message')).message.conversation_id
    visitor.send({ type: 'typing', active: true })
    expect(await desk.next('typing')).toEqual({ type: 'typing', conversation_id: conversationId, from: 'visitor', person: null, active: true })
    desk.send({ type: 'typing', conversation_id: conversationId, active: true })
    expect(await visitor.next('typing')).toEqual({ type: 'typing', from: 'agent', active: true })
    // The page and browser of the widget reach the context panel.
    const context = await server.call('GET', `/api/dev/v1/desk/conversations/${conversationId}/context`)
    expect(context.body.visitor.page_url).toBe('https://shop.example/checkout')
    visitor.close()
  })

  test("another desk sees who is typing: the person's name, not only that someone is", async () => {
    const opened = openConversation(server, chat, { says: 'hi' })
    const watching = await open(sam.cookie)
    await watching.next('ready')
    const typing = await open(ada.cookie)
    await typing.next('ready')
    typing.send({ type: 'typing', conversation_id: opened.id, active: true })
    expect(await watching.next('typing')).toEqual({ type: 'typing', conversation_id: opened.id, from: 'agent', person: { id: ada.id, display_name: 'ada' }, active: true })
  })

  /** Ada's and Sam's desks, both told to view a new conversation; `both` is the presence frame naming the two. */
  async function twoViewing() {
    const opened = openConversation(server, chat, { says: 'hi' })
    const first = await open(ada.cookie)
    const second = await open(sam.cookie)
    await first.next('ready')
    await second.next('ready')
    first.send({ type: 'viewing', conversation_id: opened.id })
    second.send({ type: 'viewing', conversation_id: opened.id })
    const both = (frame: any) => frame.type === 'presence' && frame.conversation_id === opened.id && frame.people.length === 2
    return { opened, first, second, both }
  }

  test('people looking at one conversation see each other', async () => {
    const { opened, first, second, both } = await twoViewing()
    expect((await first.next(both)).people.map((p: { id: string }) => p.id).sort()).toEqual([ada.id, sam.id].sort())
    await second.next(both)
    second.close()
    const left = await first.next((frame) => frame.type === 'presence' && frame.conversation_id === opened.id && frame.people.length === 1)
    expect(left.people).toEqual([{ id: ada.id, display_name: 'ada' }])
  })

  test('a desk that connects learns who views each conversation once, however many view it', async () => {
    const { opened, first, second, both } = await twoViewing()
    await first.next(both)
    const late = await open(ada.cookie)
    await late.next('ready')
    // Frames arrive in order: once the pong is in, everything sent on connecting is too.
    late.send({ type: 'ping' })
    await late.next('pong')
    const presences = late.received.filter((frame) => frame.type === 'presence' && frame.conversation_id === opened.id)
    expect(presences).toHaveLength(1)
    expect(presences[0].people.map((person: { id: string }) => person.id).sort()).toEqual([ada.id, sam.id].sort())
    first.close()
    second.close()
  })

  test('a bad frame gets an error, and the socket stays open', async () => {
    const desk = await open(ada.cookie)
    await desk.next('ready')
    desk.send('not json')
    expect(await desk.next('error')).toMatchObject({ code: 'bad_frame' })
    desk.send({ type: 'viewing', conversation_id: 'someone-elses' })
    expect(await desk.next('error')).toMatchObject({ code: 'not_found' })
    desk.send({ type: 'ping' })
    expect(await desk.next('pong')).toMatchObject({ type: 'pong' })
  })

  test('signing out closes that desk at once; ending a session closes its desk', async () => {
    const cookie = await signIn(server, 'sam@acme.io')
    const desk = await open(cookie)
    await desk.next('ready')
    const other = await open(sam.cookie)
    await other.next('ready')
    const out = await server.call('POST', '/api/dev/v1/auth/sign-out', { key: null, headers: { cookie, origin: ORIGIN } })
    expect(out.status).toBe(204)
    expect((await desk.closedWith()).code).toBe(4401)
    expect(other.isOpen).toBe(true)
    await server.call('POST', '/api/dev/v1/auth/sign-out-everywhere', { key: null, headers: { cookie: sam.cookie, origin: ORIGIN } })
    expect((await other.closedWith()).code).toBe(4401)
  })

  test('a desk that says it saw more than was ever sent is told to reload', async () => {
    const desk = await open(ada.cookie, 10_000_000)
    const reload = await desk.next('reload')
    expect(reload.seq).toBeLessThan(10_000_000)
    expect((await desk.next('ready')).seq).toBe(reload.seq)
  })

  test('a desk whose missed events are no longer kept is told to reload', async () => {
    openConversation(server, chat, { says: 'one more' })
    await Bun.sleep(5)
    // A row holds one write batch's entries, keyed by the last: a desk that saw the first row's
    // last entry misses the second row's, deleted here with the first.
    const rows = server.db.query<{ seq: number }, []>('SELECT seq FROM desk_feed ORDER BY seq LIMIT 2').all()
    const seen = rows[0]?.seq as number
    server.db.run('DELETE FROM desk_feed WHERE seq <= ?', [rows.at(-1)?.seq as number])
    const desk = await open(ada.cookie, seen)
    expect(await desk.next('reload')).toMatchObject({ type: 'reload' })
  })
})

describe('the desk socket across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-desk-'))
  const file = join(dir, 'parley.db')
  const env = { PARLEY_DATA_DIR: dir, PARLEY_PUBLIC_URL: ORIGIN, PARLEY_PUBLIC_RATE_LIMIT: '0' }
  let running: { db: Database; app: App; server: ReturnType<typeof listen> } | null = null

  function start() {
    const db = openDatabase(file)
    migrate(db)
    const app = createApp({ db, config: loadConfig(env), logger: createLogger('warn', memorySink()) })
    running = { db, app, server: listen(app, { port: 0, hostname: '127.0.0.1' }) }
    return running
  }
  async function stop() {
    if (!running) return
    running.server.stop(true)
    await running.app.close()
    closeDatabase(running.db)
    running = null
  }
  afterAll(async () => {
    await stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a reconnect after a restart gets what it missed, in order, with no gap and nothing twice', async () => {
    let { app, server } = start()
    const key = (await app.services.workspaces.createKey({ name: 'test' })).key
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) => {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      const text = await response.text()
      return { status: response.status, body: text ? JSON.parse(text) : undefined, text, headers: response.headers }
    }
    const invited = await call('POST', '/api/dev/v1/users', { email: 'ada@acme.io', display_name: 'Ada', role: 'admin' })
    const accepted = await call('POST', '/api/dev/v1/auth/accept-invite', { token: invited.body.invite.url.split('#token=')[1], password: 'correct horse battery staple' }, {})
    const cookie = (accepted.headers.get('set-cookie') as string).split(';', 1)[0] as string
    const bot = await call('POST', '/api/dev/v1/chatbots', { name: 'Shop' })
    const say = (text: string) => {
      const contact = app.services.visitors.ensureContact(bot.body.id, { externalId: null, tokenHash: crypto.randomUUID() })
      const ctx = { chatbotId: bot.body.id, channel: 'web' as const, integrationId: null }
      const conversation = app.services.conversations.open(ctx, contact.id, null)
      app.services.conversations.visitorSays(conversation, { clientId: crypto.randomUUID(), content: { kind: 'text', text } }, ctx)
    }

    const desk = await DeskClient.connect(deskUrl(server.port as number), { cookie, origin: ORIGIN })
    const first = (await desk.next('ready')).seq as number
    say('before the desk went offline')
    const seen = await desk.next((frame) => frame.type === 'message')
    // The conversation's opening came first.
    expect(desk.received.map((frame) => [frame.type, frame.seq])).toEqual([['conversation', first + 1]])
    expect(seen.seq).toBe(first + 2)
    desk.close()
    await Bun.sleep(20)

    say('while the desk was offline')
    await Bun.sleep(5)
    await stop()
    ;({ app, server } = start())
    say('after the restart')
    await Bun.sleep(5)

    const back = await DeskClient.connect(deskUrl(server.port as number, seen.seq), { cookie, origin: ORIGIN })
    const ready = await back.next('ready')
    const caught = back.received.splice(0).filter((frame) => 'seq' in frame)
    expect(caught.map((frame) => frame.seq)).toEqual(Array.from({ length: ready.seq - seen.seq }, (_, index) => seen.seq + 1 + index))
    expect(caught.filter((frame) => frame.type === 'message').map((frame) => frame.message.content.text)).toEqual(['while the desk was offline', 'after the restart'])
    expect(caught.filter((frame) => frame.type === 'conversation').map((frame) => frame.change)).toEqual(['opened', 'opened'])
    // Live events go on from there.
    say('live again')
    const live = await back.next((frame) => frame.type === 'message')
    expect(live).toMatchObject({ seq: ready.seq + 2, message: { content: { text: 'live again' } } })
    back.close()
    // Two servers start and a password is hashed: more than the default 5 s on a loaded machine.
  }, 30_000)
})
