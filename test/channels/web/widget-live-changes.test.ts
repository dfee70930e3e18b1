import { describe, expect, test } from 'bun:test'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, textOf, type WebChat } from '../../support/web-chat.ts'

const suite = socketSuite()
const { connect } = suite
const api = (method: string, path: string, body?: unknown) => suite.server.call(method, `/api/dev/v1${path}`, { body })

/** A visitor who has opened the chat: its socket and conversation id. */
async function startedVisitor(chat: WebChat, hello: Record<string, unknown> = {}) {
  const client = await connect(chat)
  const welcome = await client.hello(hello)
  client.send({ type: 'start' })
  const [first] = await client.messages(2)
  return { client, conversationId: first!.conversation_id, token: welcome.visitor_token }
}

describe('contact details', () => {
  test('are kept until the first message, then stored and merged on every reconnect', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    const { visitor_token } = await client.hello({ contact_details: { 'First Name': 'Jane', plan: 'free', address: { city: 'Paris' } } })
    client.send({ type: 'start' })
    const [first] = await client.messages(2)
    const path = `/chatbots/${chat.chatbotId}/conversations/${first!.conversation_id}`
    expect((await api('GET', path)).body.contact.details).toEqual({})

    client.send({ type: 'message', client_id: 'm1', text: 'hi' })
    await client.messages(2)
    expect((await api('GET', path)).body.contact.details).toEqual({ first_name: 'Jane', plan: 'free' })

    client.close()
    const again = await connect(chat)
    await again.hello({ visitor_token, contact_details: { plan: 'pro', Seats: 5 } })
    again.send({ type: 'ping' })
    await again.next('pong')
    expect((await api('GET', path)).body.contact.details).toEqual({ first_name: 'Jane', plan: 'pro', seats: 5 })

    again.send({ type: 'contact_details', details: { 'Is Admin': true } })
    again.send({ type: 'ping' })
    await again.next('pong')
    expect((await api('GET', path)).body.contact.details).toEqual({ first_name: 'Jane', plan: 'pro', seats: 5, is_admin: true })
  })

  test("the page's details reach the flow's first messages before they are stored", async () => {
    const flow = {
      version: 1 as const,
      start: 'hello',
      states: { hello: { say: [{ text: 'Hello {{contact.first_name|there}}, on the {{contact.plan}} plan!' }], on: [{ to: 'hello' }] } },
    }
    const chat = await setUpWebChat(suite.server, { flow })
    const client = await connect(chat)
    await client.hello({ contact_details: { 'First Name': 'Jane', plan: 'pro' } })
    client.send({ type: 'start' })
    const [greeting] = await client.messages(1)
    expect(textOf(greeting!.content)).toBe('Hello Jane, on the pro plan!')
    // Stored once the visitor speaks, as the spec says.
    const path = `/chatbots/${chat.chatbotId}/conversations/${greeting!.conversation_id}`
    expect((await api('GET', path)).body.contact.details).toEqual({})
    client.send({ type: 'message', client_id: 'm1', text: 'hi' })
    await client.messages(2)
    expect((await api('GET', path)).body.contact.details).toEqual({ first_name: 'Jane', plan: 'pro' })
  })

  test('past 13 fields the extra keys are named in a notice and left out; long values are cut', async () => {
    const chat = await setUpWebChat(suite.server)
    const details = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`field ${i}`, i]))
    const { client, conversationId } = await startedVisitor(chat, { contact_details: { ...details, note: 'x'.repeat(400) } })
    expect((await client.next('error')).code).toBe('contact_details_truncated')
    expect((await client.next('error')).message).toContain('field_13')
    client.send({ type: 'message', client_id: 'm1', text: 'hi' })
    await client.messages(2)
    const stored = (await api('GET', `/chatbots/${chat.chatbotId}/conversations/${conversationId}`)).body.contact.details
    expect(Object.keys(stored)).toHaveLength(13)
    expect(stored.field_0).toBe(0)
    expect(stored.note).toBeUndefined()
  })
})

describe('agents', () => {
  test("an agent's message arrives live, the bot falls silent, and handing back lets it answer again", async () => {
    const chat = await setUpWebChat(suite.server)
    const { client, conversationId } = await startedVisitor(chat)
    const base = `/chatbots/${chat.chatbotId}/conversations/${conversationId}`

    await api('POST', `${base}/typing`, { active: true })
    expect(await client.next('typing')).toEqual({ type: 'typing', from: 'agent', active: true })
    const posted = await api('POST', `${base}/messages`, { text: 'Hi, Sam here.', author: 'Sam' })
    expect(posted.status).toBe(201)
    const live = await client.next('message')
    expect(live.message).toMatchObject({ id: posted.body.id, role: 'agent', author: 'Sam', content: { kind: 'text', text: 'Hi, Sam here.' } })
    expect((await client.next('status')).status).toBe('handoff')

    client.send({ type: 'message', client_id: 'v1', text: 'pricing?' })
    expect((await client.next('message')).message.role).toBe('visitor')
    client.send({ type: 'ping' })
    await client.next('pong')
    expect(client.received.filter((m) => m.type === 'message')).toEqual([])

    expect((await api('PATCH', base, { status: 'bot' })).body.status).toBe('bot')
    expect((await client.next('status')).status).toBe('bot')
    client.send({ type: 'message', client_id: 'v2', text: 'pricing?' })
    const [, answer] = await client.messages(2)
    expect(textOf(answer!.content)).toBe('What is your email?')
  })

  test("a flow's handoff resumes where the flow says once handed back", async () => {
    const chat = await setUpWebChat(suite.server, {
      flow: {
        version: 1,
        start: 'menu',
        states: {
          menu: { say: [{ text: 'Menu', buttons: [{ id: 'human', title: 'Human' }] }], on: [{ button: 'human', to: 'human' }, { to: 'menu' }] },
          human: { handoff: { text: 'Connecting you.', resume: 'after' } },
          after: { say: [{ text: 'The bot is back.' }], on: [{ to: 'menu' }] },
        },
      },
    })
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'start' })
    const [menu] = await client.messages(1)
    client.send({ type: 'reply', client_id: 'r', reply_to: 'button', id: 'human', title: 'Human' })
    expect((await client.messages(2)).map((m) => textOf(m.content))).toEqual(['Human', 'Connecting you.'])
    await api('PATCH', `/chatbots/${chat.chatbotId}/conversations/${menu!.conversation_id}`, { status: 'bot' })
    expect(textOf((await client.next('message')).message.content)).toBe('The bot is back.')
  })

  test('closing a conversation tells the widget; the next start opens a new conversation', async () => {
    const chat = await setUpWebChat(suite.server)
    const { client, conversationId } = await startedVisitor(chat)
    await api('PATCH', `/chatbots/${chat.chatbotId}/conversations/${conversationId}`, { status: 'closed' })
    expect(await client.next('status')).toEqual({ type: 'status', conversation_id: conversationId, status: 'closed' })
    client.send({ type: 'start' })
    const next = await client.next('message')
    expect(next.message.conversation_id).not.toBe(conversationId)
  })
})

describe('what deletion and deactivation cut', () => {
  test('deleting the web integration closes its sockets with 4009 and refuses new ones', async () => {
    const chat = await setUpWebChat(suite.server)
    const { client } = await startedVisitor(chat)
    expect((await api('DELETE', `/chatbots/${chat.chatbotId}/integrations/${chat.integrationId}`)).status).toBe(204)
    expect((await client.closedWith()).code).toBe(CloseCode.integrationRemoved)
    const late = await connect(chat)
    expect((await late.closedWith()).code).toBe(CloseCode.unknownWidgetKey)
  })

  test('deactivating it closes its sockets; reactivating lets visitors back', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    await client.hello()
    await api('PATCH', `/chatbots/${chat.chatbotId}/integrations/web`, { is_active: false })
    expect((await client.closedWith()).code).toBe(CloseCode.integrationRemoved)
    await api('PATCH', `/chatbots/${chat.chatbotId}/integrations/web`, { is_active: true })
    await (await connect(chat)).hello()
  })

  test('deleting the chatbot closes its sockets', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    await client.hello()
    await api('DELETE', `/chatbots/${chat.chatbotId}`)
    expect((await client.closedWith()).code).toBe(CloseCode.integrationRemoved)
  })

  test('deleting the flow stops bot replies; the history stays and agents can still write', async () => {
    const chat = await setUpWebChat(suite.server)
    const { client, conversationId } = await startedVisitor(chat)
    await api('DELETE', `/chatbots/${chat.chatbotId}/flows/${chat.flowId}`)
    client.send({ type: 'message', client_id: 'after-delete', text: 'pricing?' })
    expect((await client.next('message')).message.role).toBe('visitor')
    client.send({ type: 'ping' })
    await client.next('pong')
    expect(client.received.filter((m) => m.type === 'message')).toEqual([])
    const history = await api('GET', `/chatbots/${chat.chatbotId}/conversations/${conversationId}/messages`)
    expect(history.body.total).toBe(3)
    await api('POST', `/chatbots/${chat.chatbotId}/conversations/${conversationId}/messages`, { text: 'Still here.' })
    expect((await client.next('message')).message.role).toBe('agent')
  })
})

describe('limits', () => {
  test('older history comes in pages', async () => {
    const chat = await setUpWebChat(suite.server, {
      flow: { version: 1, start: 'echo', states: { echo: { say: [{ text: 'ok' }], on: [{ to: 'echo' }] } } },
    })
    const client = await connect(chat)
    const { visitor_token } = await client.hello()
    client.send({ type: 'start' })
    await client.messages(1)
    for (let i = 0; i < 26; i++) {
      client.send({ type: 'message', client_id: `m${i}`, text: `message ${i}` })
      await client.messages(2)
    }
    const again = await connect(chat)
    const welcome = await again.hello({ visitor_token })
    expect(welcome.messages).toHaveLength(50)
    expect(welcome.has_more).toBe(true)
    again.send({ type: 'history', before: welcome.messages[0]!.id })
    const older = await again.next('history')
    expect(older.messages).toHaveLength(3)
    expect(older.has_more).toBe(false)
    expect(textOf(older.messages[0]!.content)).toBe('ok')
  })

  test('a flood gets rate_limited errors and then the socket is closed with 4008', async () => {
    const chat = await setUpWebChat(suite.server, { flow: null })
    const client = await connect(chat)
    await client.hello()
    for (let i = 0; i < 60; i++) client.send({ type: 'ping' })
    expect((await client.next('error')).code).toBe('rate_limited')
    expect((await client.closedWith()).code).toBe(CloseCode.rateLimited)
  })
})

describe('a message that opens the conversation', () => {
  test('is stored first, then the flow opens; it answers the first state only when it says what it listens for', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'message', client_id: 'm1', text: 'hello there' })
    const opened = await client.messages(3)
    expect(opened.map((m) => `${m.role}: ${textOf(m.content)}`)).toEqual(['visitor: hello there', 'bot: Hi! How can I help?', 'bot: Pick one'])
    // Nothing more: no fallback for a greeting nobody asked for.
    await expect(client.messages(1, 300)).rejects.toThrow('no message within 300 ms')

    const other = await connect(chat)
    await other.hello()
    other.send({ type: 'message', client_id: 'm1', text: 'What is your pricing?' })
    const answered = await other.messages(4)
    expect(answered.map((m) => `${m.role}: ${textOf(m.content)}`)).toEqual([
      'visitor: What is your pricing?',
      'bot: Hi! How can I help?',
      'bot: Pick one',
      'bot: What is your email?',
    ])
  })
})

describe("the visitor's language", () => {
  const flow = {
    version: 1 as const,
    start: 'pick',
    states: {
      pick: { branch: [{ contact: 'language', equals: 'pt', to: 'portuguese' }, { to: 'other' }] },
      portuguese: { say: [{ text: 'Olá! ({{contact.locale}})' }], on: [{ to: 'pick' }] },
      other: { say: [{ text: 'Hello! ({{contact.locale|unknown}})' }], on: [{ to: 'pick' }] },
    },
  }

  test("the browser's language is stored as the contact's locale, branches the flow, and follows a later browser", async () => {
    const chat = await setUpWebChat(suite.server, { flow })
    const client = await connect(chat)
    const { visitor_token: token } = await client.hello({ locale: 'pt-BR' })
    client.send({ type: 'start' })
    const [greeting] = await client.messages(1)
    expect(textOf(greeting!.content)).toBe('Olá! (pt-BR)')
    const path = `/chatbots/${chat.chatbotId}/conversations/${greeting!.conversation_id}`
    expect((await api('GET', path)).body.contact.locale).toBe('pt-BR')
    client.close()

    const again = await connect(chat)
    await again.hello({ visitor_token: token, locale: 'de-AT' })
    again.send({ type: 'ping' })
    await again.next('pong')
    expect((await api('GET', path)).body.contact.locale).toBe('de-AT')
    again.send({ type: 'message', client_id: 'm1', text: 'hi' })
    const [, answer] = await again.messages(2)
    expect(textOf(answer!.content)).toBe('Hello! (de-AT)')
  })

  test('without a language the contact has none (null), and the flow takes its other way', async () => {
    const chat = await setUpWebChat(suite.server, { flow })
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'start' })
    const [greeting] = await client.messages(1)
    expect(textOf(greeting!.content)).toBe('Hello! (unknown)')
    expect((await api('GET', `/chatbots/${chat.chatbotId}/conversations/${greeting!.conversation_id}`)).body.contact.locale).toBe(null)
  })

  test.each([
    ['markup', '<b>en</b>'],
    ['too long', `en-${'abcdefgh-'.repeat(4)}x`],
    ['not a tag', 'english'],
  ])('a hello whose locale is not a language tag (%s) is refused, nothing stored', async (_, locale) => {
    const chat = await setUpWebChat(suite.server, { flow })
    const client = await connect(chat)
    client.send({ type: 'hello', v: 1, locale })
    const closed = await client.closedWith()
    expect(closed.code).toBe(CloseCode.protocolError)
    expect((await api('GET', `/chatbots/${chat.chatbotId}/conversations`)).body.items).toEqual([])
  })
})
