import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type LiveServer, liveServer } from '../support/live-server.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'

// The app's clock, moved by the test (never slept on): Monday 2026-03-02 in Berlin.
let clock = '2026-03-02T08:30:00.000Z'
const WEEKDAYS_9_TO_17 = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [{ from: '09:00', until: '17:00' }]]))

describe('the widget is asked for an e-mail at a handoff outside business hours', () => {
  let server: LiveServer
  let chat: WebChat
  const clients: WidgetClient[] = []
  const api = (method: string, path: string, body?: unknown) => server.call(method, `/api/dev/v1${path}`, { body })
  /** A visitor who asks for a person (the sales flow's Support button). */
  async function handedOff() {
    const client = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    clients.push(client)
    const welcome = await client.hello()
    client.send({ type: 'start' })
    const [first] = await client.messages(2)
    client.send({ type: 'reply', client_id: crypto.randomUUID(), reply_to: 'button', id: 'support', title: 'Support' })
    const status = await client.next('status')
    return { client, status, said: await client.messages(2), conversationId: first!.conversation_id, token: welcome.visitor_token }
  }

  beforeAll(async () => {
    server = liveServer({}, {}, () => clock)
    chat = await setUpWebChat(server)
    expect((await api('PUT', `/chatbots/${chat.chatbotId}/business-hours`, { timezone: 'Europe/Berlin', weekly: WEEKDAYS_9_TO_17 })).status).toBe(200)
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await server.stop()
  })

  test('within the hours: handed off as before, no e-mail asked', async () => {
    clock = '2026-03-02T08:30:00.000Z'
    const { status, said } = await handedOff()
    expect(status).toEqual({ type: 'status', conversation_id: expect.any(String), status: 'handoff' })
    expect(said.at(-1)?.content).toEqual({ kind: 'text', text: 'A person will answer you here shortly.' })
  })

  test('outside them: the status asks for an e-mail, again at a reconnect, and no longer once it is given', async () => {
    clock = '2026-03-02T18:30:00.000Z'
    const { client, status, said, conversationId, token } = await handedOff()
    expect(status).toMatchObject({ status: 'handoff', ask_email: true })
    expect(said.at(-1)?.content).not.toEqual({ kind: 'text', text: 'A person will answer you here shortly.' })
    const again = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    clients.push(again)
    expect((await again.hello({ visitor_token: token })).conversation).toMatchObject({ id: conversationId, status: 'handoff', ask_email: true })
    // The visitor leaves their e-mail: kept among the contact's details, for the team.
    client.send({ type: 'contact_details', details: { email: 'grace@navy.mil' } })
    client.send({ type: 'ping' })
    await client.next('pong')
    const conversation = await api('GET', `/chatbots/${chat.chatbotId}/conversations/${conversationId}`)
    expect(conversation.body.contact.details).toMatchObject({ email: 'grace@navy.mil' })
    const third = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    clients.push(third)
    expect((await third.hello({ visitor_token: token })).conversation?.ask_email).toBeUndefined()
  })
})
