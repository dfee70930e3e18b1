import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Webhook } from 'standardwebhooks'
import { WebhookEvent } from '../../../server/channels/rest-api/model.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { webhookReceiver, type WebhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import { type RestApiChat, setUpRestApiChat, summary } from './support/rest-api-chat.ts'

let app: TestApp
let receiver: WebhookReceiver
let chat: RestApiChat

beforeEach(async () => {
  app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  receiver = webhookReceiver()
  chat = await setUpRestApiChat(app, receiver.url)
})
afterEach(async () => {
  receiver.stop()
  await app.close()
})

/** A rest-api conversation opened through the services, as the inbound endpoint does. */
function openConversation(userId = 'rest-api:user-1') {
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: userId, tokenHash: '' })
  return app.services.conversations.open({ chatbotId: chat.chatbotId, channel: 'rest-api', integrationId: chat.integrationId }, contact.id, null)
}

const outboxCount = () => app.db.query<{ n: number }, []>('SELECT count(*) AS n FROM outbox').get()?.n
const messageCount = () => app.db.query<{ n: number }, []>('SELECT count(*) AS n FROM messages').get()?.n

describe('outbound webhooks of a rest-api conversation', () => {
  test("the bot's opening messages reach webhook_url in order, signed, in the documented shape", async () => {
    const conversation = openConversation()
    await app.outbox.drain()
    expect(receiver.events().map(summary)).toEqual(['bot: Hi! How can I help?', 'bot: Pick one'])
    for (const { headers, body, json } of receiver.received) {
      expect(new Webhook(chat.secret).verify(body, headers)).toEqual(json)
      expect(Value.Check(WebhookEvent, json)).toBe(true)
    }
    expect(receiver.received[1]?.json).toEqual({
      type: 'message.created',
      timestamp: expect.stringMatching(/Z$/),
      data: {
        chatbot_id: chat.chatbotId,
        integration_id: chat.integrationId,
        conversation_id: conversation.id,
        contact: { id: conversation.contact_id, external_id: 'rest-api:user-1', user_id: 'user-1' },
        message: {
          id: expect.any(String),
          conversation_id: conversation.id,
          role: 'bot',
          content: { kind: 'buttons', text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] },
          created_at: expect.any(String),
        },
      },
    })
  })

  test("an agent's message (conversations API) reaches the webhook, then the handoff", async () => {
    const conversation = openConversation()
    const posted = await app.call('POST', chat.path(`/conversations/${conversation.id}/messages`), { body: { text: 'Sam here.', author: 'Sam' } })
    expect(posted.status).toBe(201)
    await app.outbox.drain()
    expect(receiver.events().map(summary)).toEqual(['bot: Hi! How can I help?', 'bot: Pick one', 'agent: Sam here.', '[bot → handoff]'])
    expect(receiver.received[2]?.json.data.message).toMatchObject({ id: posted.body.id, role: 'agent', author: 'Sam' })
  })

  test('closing and handing back are announced as status changes', async () => {
    const conversation = openConversation()
    const patch = (status: string) => app.call('PATCH', chat.path(`/conversations/${conversation.id}`), { body: { status } })
    expect((await patch('handoff')).status).toBe(200)
    expect((await patch('bot')).status).toBe(200)
    expect((await patch('closed')).status).toBe(200)
    await app.outbox.drain()
    expect(receiver.events().map(summary).slice(2)).toEqual(['[bot → handoff]', '[handoff → bot]', '[bot → closed]'])
  })

  test("a web conversation's messages are not sent to the webhook", async () => {
    const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: 'abc' })
    app.services.conversations.open({ chatbotId: chat.chatbotId, channel: 'web', integrationId: null }, contact.id, 'Hello')
    await app.outbox.drain()
    expect(receiver.received).toHaveLength(0)
    expect(outboxCount()).toBe(0)
  })

  test("the deliveries are written in the turn's own transaction: rolled back with its messages", async () => {
    const conversation = openConversation()
    await app.outbox.drain()
    const before = { outbox: outboxCount(), messages: messageCount() }
    // Inside a transaction someone else owns, the turn's unit commits or rolls back with it.
    app.db.exec('BEGIN')
    app.services.conversations.agentSays(conversation, 'never sent')
    expect({ outbox: outboxCount(), messages: messageCount() }).toEqual({ outbox: before.outbox! + 2, messages: before.messages! + 1 })
    app.db.exec('ROLLBACK')
    expect({ outbox: outboxCount(), messages: messageCount() }).toEqual(before)
    await app.outbox.drain()
    expect(receiver.events().map(summary)).toEqual(['bot: Hi! How can I help?', 'bot: Pick one'])
  })
})
