import { beforeAll, describe, expect, test } from 'bun:test'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, textOf, type WebChat } from '../../support/web-chat.ts'

const suite = socketSuite()
const { connect } = suite

describe('opening the socket', () => {
  let shop: WebChat
  let open: WebChat
  beforeAll(async () => {
    shop = await setUpWebChat(suite.server, { web: { allowed_domains: ['shop.test', '*.shop.test'] } })
    open = await setUpWebChat(suite.server)
  })

  test('an allowed origin gets a welcome', async () => {
    const client = await connect(shop.widgetKey, 'https://shop.test')
    const welcome = await client.hello()
    expect(welcome.conversation).toBeNull()
    expect(welcome.visitor_token).toMatch(/^vt_[0-9A-Za-z]{32}$/)
  })

  test('a subdomain allowed by a wildcard gets a welcome', async () => {
    const client = await connect(shop.widgetKey, 'https://www.shop.test')
    await client.hello()
  })

  test('an origin outside allowed_domains is refused with 4003', async () => {
    const client = await connect(shop.widgetKey, 'https://evil.test')
    expect(await client.closedWith()).toEqual({ code: CloseCode.originNotAllowed, reason: 'origin https://evil.test may not load this widget' })
  })

  test('a missing Origin is refused when the list is not empty', async () => {
    const client = await connect(shop.widgetKey)
    expect((await client.closedWith()).code).toBe(CloseCode.originNotAllowed)
  })

  test('an empty allowed_domains list admits every origin, even none', async () => {
    await (await connect(open.widgetKey)).hello()
    await (await connect(open.widgetKey, 'https://anywhere.test')).hello()
  })

  test('an unknown widget key is refused with 4001', async () => {
    const client = await connect('wk_doesnotexist000000000000')
    expect(await client.closedWith()).toEqual({ code: CloseCode.unknownWidgetKey, reason: 'no widget has this key' })
  })

  test('an inactive integration is refused with 4002', async () => {
    const chat = await setUpWebChat(suite.server)
    await suite.server.call('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/web`, { body: { is_active: false } })
    const client = await connect(chat.widgetKey)
    expect((await client.closedWith()).code).toBe(CloseCode.integrationInactive)
  })

  test('anything but hello first is a protocol error', async () => {
    const client = await connect(open.widgetKey)
    client.send({ type: 'start' })
    expect((await client.closedWith()).code).toBe(CloseCode.protocolError)
  })

  test('a frame that is not JSON is a protocol error', async () => {
    const client = await connect(open.widgetKey)
    client.send('hello?')
    expect((await client.closedWith()).code).toBe(CloseCode.protocolError)
  })

  test('after hello, a malformed message gets an error and the socket stays open', async () => {
    const client = await connect(open.widgetKey)
    await client.hello()
    client.send({ type: 'message', client_id: 'c1', text: '' })
    const error = await client.next('error')
    expect(error).toMatchObject({ code: 'invalid_message', client_id: 'c1' })
    client.send({ type: 'ping' })
    await client.next('pong')
  })

  test('a plain HTTP request to the socket path answers 426', async () => {
    const response = await fetch(`${suite.server.origin}/widget/v1/socket?key=${open.widgetKey}`)
    expect(response.status).toBe(426)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
  })
})

describe('a conversation through a published flow', () => {
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server, { web: { greeting_message: 'Welcome to Acme!' } })
  })

  test('start greets, runs the flow, answers buttons, captures and ends', async () => {
    const client = await connect(chat.widgetKey)
    await client.hello()
    client.send({ type: 'start' })
    const opening = await client.messages(3)
    expect(opening.map((m) => [m.role, textOf(m.content)])).toEqual([
      ['bot', 'Welcome to Acme!'],
      ['bot', 'Hi! How can I help?'],
      ['bot', 'Pick one'],
    ])
    expect(opening[2]?.content).toEqual({ kind: 'buttons', text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] })

    client.send({ type: 'reply', client_id: 'r1', reply_to: 'button', id: 'sales', title: 'Sales' })
    const [echo, ask] = await client.messages(2)
    expect(echo).toMatchObject({ role: 'visitor', client_id: 'r1', content: { kind: 'reply', id: 'sales' } })
    expect(textOf(ask!.content)).toBe('What is your email?')

    client.send({ type: 'message', client_id: 'm1', text: 'not an email' })
    expect((await client.messages(2)).map((m) => textOf(m.content))).toEqual(['not an email', 'That does not look like an email.'])

    client.send({ type: 'message', client_id: 'm2', text: 'jane@acme-corp.io' })
    expect((await client.messages(2)).map((m) => textOf(m.content))).toEqual(['jane@acme-corp.io', 'Thanks, we will write to jane@acme-corp.io.'])
    const closed = await client.next('status')
    expect(closed.status).toBe('closed')
  })

  test('messages are stored: the conversations API shows them in order', async () => {
    const list = await suite.server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations`)
    expect(list.body.total).toBe(1)
    const conversation = list.body.items[0]
    expect(conversation).toMatchObject({ channel: 'web', status: 'closed', integration_id: chat.integrationId, flow_id: chat.flowId, flow_version: 1 })
    const messages = await suite.server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${conversation.id}/messages`)
    expect(messages.body.total).toBe(9)
    expect(messages.body.items.map((m: { role: string }) => m.role)).toEqual([
      'bot', 'bot', 'bot', 'visitor', 'bot', 'visitor', 'bot', 'visitor', 'bot',
    ])
  })

})
