import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { activePerson, ORIGIN } from '../../people/support/people-context.ts'
import { type LiveServer, liveServer } from '../../support/live-server.ts'
import { setUpWebChat, textOf, type WebChat } from '../../support/web-chat.ts'
import { WidgetClient } from '../../support/widget-client.ts'
import { SAMPLE } from '../../attachments/sample-files.ts'

/**
 * The console's preview of the widget runs on Parley's own origin, which a chatbot's
 * allowed_domains rarely lists: a signed-in person of the chatbot's workspace is admitted
 * there (socket and uploads), and nobody else is.
 */
describe("the widget preview on Parley's own origin", () => {
  let server: LiveServer
  let shop: WebChat
  let ada: { cookie: string }
  let stranger: { cookie: string }
  const clients: WidgetClient[] = []
  const connect = async (chat: WebChat, headers: Record<string, string>) => {
    const client = await WidgetClient.connect(server.socketUrl(chat.widgetKey), headers.origin, headers)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    server = liveServer()
    ada = await activePerson(server, 'ada@acme.io', 'admin')
    const otherKey = (await server.services.workspaces.createKey({ name: 'other', newWorkspace: true })).key
    stranger = await activePerson(server, 'eve@elsewhere.io', 'admin', otherKey)
    shop = await setUpWebChat(server, { web: { allowed_domains: ['shop.test'] } })
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await server.stop()
  })

  test("a person of the chatbot's workspace chats there, though allowed_domains leaves Parley out", async () => {
    const client = await connect(shop, { origin: ORIGIN, cookie: ada.cookie })
    await client.hello()
    client.send({ type: 'start' })
    expect((await client.messages(2)).map((m) => textOf(m.content))).toEqual(['Hi! How can I help?', 'Pick one'])
    client.send({ type: 'message', client_id: 'p1', text: 'what is the price?' })
    expect((await client.messages(2)).map((m) => textOf(m.content))).toEqual(['what is the price?', 'What is your email?'])
  })

  test('and sends a file from there', async () => {
    const client = await connect(shop, { origin: ORIGIN, cookie: ada.cookie })
    const welcome = await client.hello()
    const answer = await fetch(`${server.origin}/widget/v1/attachments?key=${shop.widgetKey}&client_id=pic-1&filename=dent.png`, {
      method: 'POST',
      headers: { origin: ORIGIN, cookie: ada.cookie, authorization: `Bearer ${welcome.upload_token}` },
      body: SAMPLE.png,
    })
    expect([answer.status, await answer.text()]).toEqual([201, expect.any(String)])
  })

  const refusedCases: [string, () => Record<string, string>][] = [
    ["Parley's origin without a session", () => ({ origin: ORIGIN })],
    ['the session from another origin', () => ({ origin: 'https://evil.test', cookie: ada.cookie })],
    ["a person of another workspace on Parley's origin", () => ({ origin: ORIGIN, cookie: stranger.cookie })],
    ['an ended session', () => ({ origin: ORIGIN, cookie: 'parley_session=ps_notasessionnotasessionnotasess' })],
  ]
  for (const [name, headers] of refusedCases) {
    test(`${name} is refused like any page outside allowed_domains`, async () => {
      const client = await connect(shop, headers())
      expect(await client.closedWith()).toEqual({ code: CloseCode.originNotAllowed, reason: `origin ${headers().origin} may not load this widget` })
    })
  }

  test('a switched-off widget stays off for the team too, and says so', async () => {
    const off = await setUpWebChat(server, { web: { allowed_domains: ['shop.test'] } })
    await server.call('PATCH', `/api/dev/v1/chatbots/${off.chatbotId}/integrations/web`, { body: { is_active: false } })
    const client = await connect(off, { origin: ORIGIN, cookie: ada.cookie })
    expect(await client.closedWith()).toEqual({ code: CloseCode.integrationInactive, reason: 'this chat is switched off' })
  })
})
