import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'
import { fakeTime } from '../outbox/support/fake-time.ts'
import { webhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { setUpChatappChat, postWebhook, text, userMessage } from '../channels/chatapp/support/chatapp-chat.ts'
import { fakeGraphApi } from '../channels/chatapp/support/fake-graph-api.ts'
import { setUpRestApiChat } from '../channels/rest-api/support/rest-api-chat.ts'
import { liveServer, type LiveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { DESK } from './support/desk-context.ts'

const NOTE = 'PRIVATE: card ending 4242 was refunded twice'
const graph = fakeGraphApi()
const receiver = webhookReceiver()
let server: LiveServer
/** Everything announced on 'conversation.messages', as JSON. */
const announced: string[] = []

beforeAll(() => {
  server = liveServer({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url }, { outbox: { time: fakeTime(), random: () => 0.5 } })
  server.events.on('conversation.messages', (payload) => void announced.push(JSON.stringify(payload)))
})
afterAll(async () => {
  await server.stop()
  receiver.stop()
  graph.stop()
})

/** A note, then a reply, on one conversation through the desk's routes. */
async function noteThenReply(conversationId: string, reply: string) {
  const note = await server.call('POST', `${DESK}/conversations/${conversationId}/notes`, { body: { text: NOTE } })
  expect(note.status).toBe(201)
  const sent = await server.call('POST', `${DESK}/conversations/${conversationId}/replies`, { body: { text: reply } })
  expect(sent.status).toBe(201)
}

test('a note never reaches the visitor in the widget; the reply after it does', async () => {
  const chat = await setUpWebChat(server)
  const visitor = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
  const welcome = await visitor.hello()
  visitor.send({ type: 'message', client_id: 'c1', text: 'hello' })
  const own = (await visitor.next('message')).message as ChatMessage
  await noteThenReply(own.conversation_id, 'Agent here, from the web')
  const deadline = Date.now() + 3000
  let reply: ChatMessage | undefined
  while (!reply && Date.now() < deadline) {
    const next = (await visitor.next('message')).message as ChatMessage
    if (next.role === 'agent') reply = next
  }
  expect(reply?.content).toEqual({ kind: 'text', text: 'Agent here, from the web' })
  expect(JSON.stringify(visitor.received)).not.toContain('4242')
  // Nor does it come with the history a returning visitor gets.
  const again = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
  const history = await again.hello({ visitor_token: welcome.visitor_token })
  expect(JSON.stringify(history.messages)).toContain('Agent here, from the web')
  expect(JSON.stringify(history)).not.toContain('4242')
})

test('a note never reaches a rest-api webhook; the reply after it does', async () => {
  const chat = await setUpRestApiChat(server, receiver.url)
  const contact = server.services.visitors.ensureContact(chat.chatbotId, { externalId: 'rest-api:user-1', tokenHash: '' })
  const conversation = server.services.conversations.open({ chatbotId: chat.chatbotId, channel: 'rest-api', integrationId: chat.integrationId }, contact.id, null)
  await noteThenReply(conversation.id, 'Agent here, from the API')
  await server.outbox.drain()
  const bodies = receiver.received.map((got) => got.body)
  expect(bodies.some((body) => body.includes('Agent here, from the API'))).toBe(true)
  expect(bodies.join('\n')).not.toContain('4242')
})

test('a note never reaches the messaging app; the reply after it does', async () => {
  const chat = await setUpChatappChat(server, graph)
  const posted = await postWebhook(server, chat, userMessage(chat, '447911123456', text('hi')))
  expect(posted.status).toBe(200)
  const listed = await server.call('GET', chat.path('/conversations'))
  await noteThenReply(listed.body.items[0].id, 'Agent here, from the app')
  await server.chatappOutbox.drain()
  const accepted = JSON.stringify(graph.accepted())
  expect(accepted).toContain('Agent here, from the app')
  expect(accepted).not.toContain('4242')
})

test("a note is never announced on 'conversation.messages'", () => {
  expect(announced.length).toBeGreaterThan(3)
  expect(announced.join('\n')).not.toContain('4242')
})
