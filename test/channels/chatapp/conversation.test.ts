import { afterEach, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { buttonPick, postWebhook, rowPick, setUpChatappChat, statusReport, text, userMessage } from './support/chatapp-chat.ts'
import { type ChatappTestbed, chatappTestbed, USER } from './support/chatapp-test.ts'

/** A list with row transitions, 4 buttons (sent as a list), a capture and a link. */
const MENU_FLOW: ConversationFlow = {
  version: 1,
  start: 'menu',
  variables: { name: { type: 'string' } },
  states: {
    menu: {
      say: [{ text: 'What do you need?', button: 'Topics', sections: [{ title: 'Help', rows: [{ id: 'billing', title: 'Billing', description: 'Invoices and payments' }, { id: 'tech', title: 'Technical' }] }] }],
      on: [{ row: 'billing', to: 'billing' }, { row: 'tech', to: 'plans' }, { to: 'menu' }],
    },
    billing: { say: [{ text: 'Billing it is.' }], end: true },
    plans: {
      say: [{ text: 'Which plan are you on?', buttons: [{ id: 'free', title: 'Free' }, { id: 'starter', title: 'Starter' }, { id: 'pro', title: 'Pro' }, { id: 'enterprise', title: 'Enterprise' }] }],
      on: [{ button: 'enterprise', to: 'ask_name' }, { to: 'plans' }],
    },
    ask_name: { say: [{ text: 'Your name?' }], capture: { var: 'name', as: 'text' }, next: 'bye' },
    bye: { say: [{ text: 'Thanks {{name}}, see https://example.com/help' }], end: true },
  },
}

let bed: ChatappTestbed
afterEach(async () => {
  await bed.close()
})

describe('a conversation through a chatapp number and a published flow', () => {
  test("a user's text gets the flow's answers as Cloud API messages, in order, from the business number to the sender", async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    // A new conversation: the flow opens; "Hi" answers nothing the first state asks, so no fallback follows.
    expect(await bed.say(chat, text('Hi'))).toEqual(['Hi! How can I help?', '[buttons] Pick one: Sales | Support'])
    for (const request of bed.graph.received) {
      expect(request.path).toBe(`/v21.0/${chat.phoneNumberId}/messages`)
      expect(request.headers.authorization).toBe(`Bearer ${chat.accessToken}`)
      expect(request.headers['content-type']).toBe('application/json')
      expect(request.json).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual', to: USER })
    }
    expect(bed.graph.received[1]?.json.interactive).toEqual({
      type: 'button',
      body: { text: 'Pick one' },
      action: { buttons: [{ type: 'reply', reply: { id: 'sales', title: 'Sales' } }, { type: 'reply', reply: { id: 'support', title: 'Support' } }] },
    })
  })

  test("a button pick takes the flow's button transition; a capture refuses a bad value, takes a good one, and the flow ends", async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    await bed.say(chat, text('Hi'))
    expect(await bed.say(chat, buttonPick('sales', 'Sales', bed.wamidOf('[buttons] Pick one')))).toEqual(['What is your email?'])
    expect(await bed.say(chat, text('not an email'))).toEqual(['That does not look like an email.'])
    expect(await bed.say(chat, text('ada@lovelace.dev'))).toEqual(['Thanks, we will write to ada@lovelace.dev.'])
    const conversations = (await bed.app.call('GET', chat.path('/conversations?channel=chatapp'))).body
    expect(conversations.items.map((c: any) => c.status)).toEqual(['closed'])
    // After the end, the next message starts a new conversation in the same flow.
    expect((await bed.say(chat, text('pricing?')))[0]).toBe('Hi! How can I help?')
    expect((await bed.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.total).toBe(2)
  })

  test("a list pick takes the row transition; a pick of buttons shown as a list (more than 3) is read as a button; a link gets a preview", async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph, { flow: MENU_FLOW })
    expect(await bed.say(chat, text('hello'))).toEqual(['[list] What do you need?: Billing, Technical'])
    const menu = bed.graph.accepted().at(-1)
    expect(menu.interactive.action).toEqual({
      button: 'Topics',
      sections: [{ title: 'Help', rows: [{ id: 'billing', title: 'Billing', description: 'Invoices and payments' }, { id: 'tech', title: 'Technical' }] }],
    })
    expect(await bed.say(chat, rowPick('tech', 'Technical', bed.wamidOf('[list] What do you need?')))).toEqual(['[list] Which plan are you on?: Free, Starter, Pro, Enterprise'])
    // Without saying which message it answers, a row is a row: no button transition matches.
    expect(await bed.say(chat, rowPick('enterprise', 'Enterprise'))).toEqual(['[list] Which plan are you on?: Free, Starter, Pro, Enterprise'])
    expect(await bed.say(chat, rowPick('enterprise', 'Enterprise', bed.wamidOf('[list] Which plan')))).toEqual(['Your name?'])
    expect(await bed.say(chat, text('Ada'))).toEqual(['Thanks Ada, see https://example.com/help'])
    expect(bed.graph.accepted().at(-1).text).toEqual({ body: 'Thanks Ada, see https://example.com/help', preview_url: true })
  })

  test('a handoff: the bot falls quiet, an agent answers through the conversations API, handing back resumes the flow', async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    await bed.say(chat, text('Hi'))
    expect(await bed.say(chat, buttonPick('support', 'Support', bed.wamidOf('[buttons] Pick one')))).toEqual(['A person will answer you here shortly.'])
    expect(await bed.say(chat, text('Is anyone there?'))).toEqual([])
    const [conversation] = (await bed.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items
    expect(conversation.status).toBe('handoff')
    const posted = await bed.app.call('POST', chat.path(`/conversations/${conversation.id}/messages`), { body: { text: 'Hi, Sam here. How can I help?', author: 'Sam' } })
    expect(posted.status).toBe(201)
    expect(await bed.sent()).toEqual(['Hi, Sam here. How can I help?'])
    const log = (await bed.app.call('GET', chat.path(`/integrations/chatapp/deliveries?conversation_id=${conversation.id}&limit=1`))).body.items
    expect(log[0]).toMatchObject({ message_id: posted.body.id, status: 'accepted', type: 'text' })
    await bed.app.call('PATCH', chat.path(`/conversations/${conversation.id}`), { body: { status: 'bot' } })
    expect(await bed.sent()).toEqual(['Hi! How can I help?', '[buttons] Pick one: Sales | Support'])
  })

  test('the sender is the contact of their E.164 number: the visitor who identified with it on the website, details merged', async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    // The widget's identify('+44 7911 123456') and setContactDetails({plan}), as the socket does them.
    const visitor = bed.app.services.visitors.resolve({ chatbotId: chat.chatbotId, userId: '+44 7911 123456', identitySecret: null, defaultCountry: null })
    if (!visitor.ok) throw new Error(visitor.reason)
    // Their browser spoke British English; the Cloud API's webhooks carry no language, so a chatapp turn leaves it as it was.
    const web = bed.app.services.visitors.ensureContact(chat.chatbotId, visitor, 'en-GB')
    bed.app.services.visitors.mergeDetails(web.id, { plan: 'pro' })

    await bed.say(chat, text('Hi'), '447911123456')
    const [conversation] = (await bed.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items
    expect(conversation.contact_id).toBe(web.id)
    const detail = (await bed.app.call('GET', chat.path(`/conversations/${conversation.id}`))).body
    expect(detail.contact).toMatchObject({ id: web.id, external_id: '+447911123456', details: { plan: 'pro', profile_name: 'Ada Lovelace' }, locale: 'en-GB' })
    // Another number is another contact, with no language.
    await bed.say(chat, text('Hi'), '4915112345678')
    const other = (await bed.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items.find((c: any) => c.contact_id !== web.id)
    expect((await bed.app.call('GET', chat.path(`/conversations/${other.id}`))).body.contact.locale).toBe(null)
    const contacts = new Set((await bed.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items.map((c: any) => c.contact_id))
    expect(contacts.size).toBe(2)
  })

  test("the provider's status reports are recorded against the messages sent, and the deliveries log shows them", async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    await bed.say(chat, text('Hi'))
    const first = bed.graph.wamidOf(0)
    const second = bed.graph.wamidOf(1)
    const report = async (wamid: string, status: string, extra = {}) => (await postWebhook(bed.app, chat, statusReport(chat, wamid, status, extra))).body.statuses
    expect(await report(first, 'sent')).toEqual({ recorded: 1, duplicates: 0, unmatched: 0 })
    // Reports may overtake each other; the furthest one counts.
    expect(await report(first, 'read')).toEqual({ recorded: 1, duplicates: 0, unmatched: 0 })
    expect(await report(first, 'delivered')).toEqual({ recorded: 1, duplicates: 0, unmatched: 0 })
    expect(await report(first, 'delivered')).toEqual({ recorded: 0, duplicates: 1, unmatched: 0 })
    const error = { code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Message Undeliverable.' } }
    expect(await report(second, 'failed', { errors: [error] })).toEqual({ recorded: 1, duplicates: 0, unmatched: 0 })

    const log = (await bed.app.call('GET', chat.path('/integrations/chatapp/deliveries'))).body
    expect(log.total).toBe(2)
    const byWamid = new Map(log.items.map((item: any) => [item.provider_message_id, item]))
    expect(byWamid.get(first)).toMatchObject({
      status: 'accepted',
      provider_status: 'read',
      provider_statuses: [
        { status: 'sent', errors: null },
        { status: 'read', errors: null },
        { status: 'delivered', errors: null },
      ],
      payload: { type: 'text', text: { body: 'Hi! How can I help?' } },
    })
    expect(byWamid.get(second)).toMatchObject({
      type: 'interactive.button',
      provider_status: 'failed',
      provider_statuses: [{ status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', details: 'Message Undeliverable.' }] }],
    })
    expect(bed.app.logLines.join('')).toContain('chatapp message failed at the provider')
    const accepted = (await bed.app.call('GET', chat.path('/integrations/chatapp/deliveries?status=accepted'))).body.total
    expect(accepted).toBe(2)
    expect((await bed.app.call('GET', chat.path('/integrations/chatapp/deliveries?status=failed'))).body.total).toBe(0)
  })

  test("the deliveries and inbound logs answer 404 for another workspace's chatbot, or one without a chatapp integration", async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    const other = bed.app.otherWorkspaceKey()
    for (const log of ['deliveries', 'inbound']) {
      expect((await bed.app.call('GET', chat.path(`/integrations/chatapp/${log}`), { key: other })).status).toBe(404)
      expect((await bed.app.call('GET', chat.path(`/integrations/chatapp/${log}`))).status).toBe(200)
    }
    await bed.app.call('DELETE', chat.path(`/integrations/${chat.integrationId}`))
    expect((await bed.app.call('GET', chat.path('/integrations/chatapp/deliveries'))).body.code).toBe('not_found')
  })

  test('a retried webhook stores nothing and runs nothing, even once the conversation it went to is closed', async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    const body = userMessage(chat, USER, text('Hi'))
    expect((await postWebhook(bed.app, chat, body)).body.messages).toEqual({ stored: 1, duplicates: 0 })
    await bed.sent()
    const [conversation] = (await bed.app.call('GET', chat.path('/conversations'))).body.items
    await bed.app.call('PATCH', chat.path(`/conversations/${conversation.id}`), { body: { status: 'closed' } })
    const count = () => bed.app.db.query<{ m: number; o: number }, []>('SELECT (SELECT count(*) FROM messages) AS m, (SELECT count(*) FROM outbox) AS o').get()
    const before = count()
    expect((await postWebhook(bed.app, chat, body)).body.messages).toEqual({ stored: 0, duplicates: 1 })
    expect(count()).toEqual(before)
    expect((await bed.app.call('GET', chat.path('/conversations'))).body.total).toBe(1)
    expect(await bed.sent()).toEqual([])
  })

  test("a reaction to the bot's message joins that conversation and is not answered", async () => {
    bed = chatappTestbed()
    const chat = await setUpChatappChat(bed.app, bed.graph)
    await bed.say(chat, text('Hi'))
    const reacted = bed.wamidOf('Hi! How can I help?')
    expect(await bed.say(chat, { type: 'reaction', reaction: { message_id: reacted, emoji: '👍' } })).toEqual([])
    const [conversation] = (await bed.app.call('GET', chat.path('/conversations'))).body.items
    const messages = (await bed.app.call('GET', chat.path(`/conversations/${conversation.id}/messages?limit=200`))).body.items
    expect(messages.at(-1)).toMatchObject({ role: 'visitor', content: { kind: 'text', text: '[reaction 👍]' } })
    // The flow still waits for an answer to its buttons.
    expect(await bed.say(chat, buttonPick('sales', 'Sales', bed.wamidOf('[buttons] Pick one')))).toEqual(['What is your email?'])
  })
})
