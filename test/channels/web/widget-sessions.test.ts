import { beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, textOf, type WebChat } from '../../support/web-chat.ts'

const suite = socketSuite()
const { connect } = suite

describe('resuming', () => {
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server, { web: { greeting_message: 'Hello there' } })
  })

  test('an anonymous visitor reconnecting with its token resumes, and is not greeted again', async () => {
    const first = await connect(chat)
    const { visitor_token } = await first.hello()
    first.send({ type: 'start' })
    await first.messages(3)
    first.close()

    const again = await connect(chat)
    const welcome = await again.hello({ visitor_token })
    expect(welcome.visitor_token).toBe(visitor_token)
    expect(welcome.conversation?.status).toBe('bot')
    expect(welcome.messages.map((m) => textOf(m.content))).toEqual(['Hello there', 'Hi! How can I help?', 'Pick one'])
    again.send({ type: 'start' })
    again.send({ type: 'ping' })
    await again.next('pong')
    expect(again.received.filter((m) => m.type === 'message')).toEqual([])
  })

  test('hello with `after` returns only the newer messages (resync)', async () => {
    const first = await connect(chat)
    const { visitor_token } = await first.hello()
    first.send({ type: 'start' })
    const [greeting] = await first.messages(3)
    const resync = await connect(chat)
    const welcome = await resync.hello({ visitor_token, after: greeting!.id })
    expect(welcome.messages.map((m) => textOf(m.content))).toEqual(['Hi! How can I help?', 'Pick one'])
    expect(welcome.has_more).toBe(false)
  })

  test('a resync that missed more than one batch gets the newest page and has_more', async () => {
    const client = await connect(chat)
    const { visitor_token } = await client.hello()
    client.send({ type: 'start' })
    const [first] = await client.messages(3)
    client.close()
    const path = `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${first!.conversation_id}/messages`
    for (let n = 1; n <= 55; n++) await suite.server.call('POST', path, { body: { text: `Note ${n}` } })
    const back = await connect(chat)
    const welcome = await back.hello({ visitor_token, after: first!.id })
    expect(welcome.messages).toHaveLength(50)
    expect(textOf(welcome.messages.at(-1)!.content)).toBe('Note 55')
    expect(welcome.has_more).toBe(true)
  })

  test('a resend with the same client id is stored and answered once', async () => {
    const client = await connect(chat)
    const { visitor_token } = await client.hello()
    client.send({ type: 'start' })
    await client.messages(3)
    client.send({ type: 'message', client_id: 'same-id', text: 'pricing please' })
    const [echo, reply] = await client.messages(2)
    expect(echo).toMatchObject({ role: 'visitor', client_id: 'same-id' })
    expect(textOf(reply!.content)).toBe('What is your email?')
    client.close()

    const reconnected = await connect(chat)
    await reconnected.hello({ visitor_token })
    reconnected.send({ type: 'message', client_id: 'same-id', text: 'pricing please' })
    const confirmed = await reconnected.next('message')
    expect(confirmed.message.id).toBe(echo!.id)
    reconnected.send({ type: 'ping' })
    await reconnected.next('pong')
    expect(reconnected.received.filter((m) => m.type === 'message')).toEqual([])

    const conversation = (await suite.server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${echo!.conversation_id}/messages`)).body
    expect(conversation.items.filter((m: { client_id?: string }) => m.client_id === 'same-id')).toHaveLength(1)
  })

  test("two tabs of one visitor both receive every message, the visitor's own included", async () => {
    const tabA = await connect(chat)
    const { visitor_token } = await tabA.hello()
    const tabB = await connect(chat)
    await tabB.hello({ visitor_token })
    tabA.send({ type: 'start' })
    expect((await tabA.messages(3)).map((m) => m.id)).toEqual((await tabB.messages(3)).map((m) => m.id))
    tabB.send({ type: 'reply', client_id: 'b1', reply_to: 'button', id: 'support', title: 'Support' })
    const inA = await tabA.messages(2)
    const inB = await tabB.messages(2)
    expect(inA.map((m) => m.id)).toEqual(inB.map((m) => m.id))
    expect(textOf(inA[1]!.content)).toBe('A person will answer you here shortly.')
    expect((await tabA.next('status')).status).toBe('handoff')
    expect((await tabB.next('status')).status).toBe('handoff')
  })
})

describe('identify', () => {
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server, { web: { default_country: 'GB' } })
  })

  test('every spelling of one phone number resumes the same visitor and conversation', async () => {
    const first = await connect(chat)
    await first.hello({ user_id: '+44 20 7946 0958' })
    first.send({ type: 'start' })
    const [firstMessage] = await first.messages(2)
    for (const spelling of ['020 7946 0958', '0044 20 7946 0958', '+442079460958']) {
      const again = await connect(chat)
      const welcome = await again.hello({ user_id: spelling })
      expect(welcome.conversation?.id).toBe(firstMessage!.conversation_id)
    }
  })

  test("an identity that talks on another channel starts its own web conversation; the other one is not resumed", async () => {
    const contact = suite.server.services.visitors.ensureContact(chat.chatbotId, { externalId: '+14155552671', tokenHash: 'unused' })
    const other = suite.server.services.conversations.open({ chatbotId: chat.chatbotId, channel: 'chatapp', integrationId: null }, contact.id, null)
    const client = await connect(chat)
    const welcome = await client.hello({ user_id: '+1 415 555 2671' })
    expect(welcome.conversation).toBeNull()
    client.send({ type: 'start' })
    const [first] = await client.messages(2)
    expect(first!.conversation_id).not.toBe(other.id)
    const conversation = await suite.server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${first!.conversation_id}`)
    expect(conversation.body).toMatchObject({ channel: 'web', contact_id: contact.id })
  })

  test('a valid e-mail resumes across devices (no shared token)', async () => {
    const laptop = await connect(chat)
    await laptop.hello({ user_id: 'jane@acme-corp.io' })
    laptop.send({ type: 'start' })
    const [greeting] = await laptop.messages(1)
    const phone = await connect(chat)
    const welcome = await phone.hello({ user_id: 'Jane@ACME-corp.io' })
    expect(welcome.conversation?.id).toBe(greeting!.conversation_id)
  })

  test.each([
    ['not-an-email@', 'invalid'],
    ['jane@example.com', 'synthetic'],
    ['bob@shop.test', 'synthetic'],
    ['temp@mailinator.com', 'disposable'],
    ['call me maybe', 'neither'],
    ['jane doe@acme-corp.io', 'invalid'],
    ["o'brien@acme-corp.io", 'only A-Z a-z 0-9 . _ - + before the @'],
    [`${'a'.repeat(60)}@${'b'.repeat(40)}.io`, 'longer than 100 characters'],
  ])('identify(%j) refuses the connection with 4004 (%s)', async (userId, why) => {
    const client = await connect(chat)
    client.send({ type: 'hello', v: 1, user_id: userId })
    const closed = await client.closedWith()
    expect(closed.code).toBe(CloseCode.invalidIdentity)
    expect(closed.reason).toContain(why)
  })

  test('jane+doe@ and janedoe@ are two visitors: nothing of an address is dropped', async () => {
    const first = await connect(chat)
    await first.hello({ user_id: 'janedoe.private@gmail.com' })
    first.send({ type: 'start' })
    await first.messages(1)
    const second = await connect(chat)
    const welcome = await second.hello({ user_id: 'jane+doe.private@gmail.com' })
    expect(welcome.conversation).toBeNull()
  })

  test('an anonymous visitor who identifies keeps their conversation', async () => {
    const anonymous = await connect(chat)
    const { visitor_token } = await anonymous.hello()
    anonymous.send({ type: 'start' })
    const [first] = await anonymous.messages(1)
    const identified = await connect(chat)
    const welcome = await identified.hello({ visitor_token, user_id: 'newcomer@acme-corp.io' })
    expect(welcome.conversation?.id).toBe(first!.conversation_id)
  })
})

describe('identity verification with identity_secret', () => {
  const secret = 'identity-secret-of-at-least-16'
  const sign = (userId: string) => createHmac('sha256', secret).update(userId).digest('hex')
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server, { web: { identity_secret: secret } })
  })

  test('the right hash is accepted', async () => {
    const client = await connect(chat)
    await client.hello({ user_id: 'jane@acme-corp.io', user_hash: sign('jane@acme-corp.io') })
  })

  test('a missing hash is refused with 4005', async () => {
    const client = await connect(chat)
    client.send({ type: 'hello', v: 1, user_id: 'jane@acme-corp.io' })
    expect((await client.closedWith()).code).toBe(CloseCode.identityNotVerified)
  })

  test("another user's hash is refused with 4005", async () => {
    const client = await connect(chat)
    client.send({ type: 'hello', v: 1, user_id: 'jane@acme-corp.io', user_hash: sign('john@acme-corp.io') })
    expect((await client.closedWith()).code).toBe(CloseCode.identityNotVerified)
  })

  test("a valid hash for jane+doe.private@gmail.com does not open janedoe.private@gmail.com's conversation", async () => {
    const victim = await connect(chat)
    await victim.hello({ user_id: 'janedoe.private@gmail.com', user_hash: sign('janedoe.private@gmail.com') })
    victim.send({ type: 'start' })
    const [greeting] = await victim.messages(1)
    const attacker = await connect(chat)
    const welcome = await attacker.hello({ user_id: 'jane+doe.private@gmail.com', user_hash: sign('jane+doe.private@gmail.com') })
    expect(welcome.conversation).toBeNull()
    expect(welcome.messages).toEqual([])
    attacker.send({ type: 'start' })
    const [own] = await attacker.messages(1)
    expect(own!.conversation_id).not.toBe(greeting!.conversation_id)
  })

  test("a signed 113-character user id is refused (4004), not cut to a 100-character victim's id", async () => {
    const victimId = `${'jane.doe.'.repeat(5)}personal@${'staff.'.repeat(4)}acme-corporation.co.uk`
    const attackerId = `${victimId}.evil-corp.io`
    expect([victimId.length, attackerId.length]).toEqual([100, 113])
    const victim = await connect(chat)
    await victim.hello({ user_id: victimId, user_hash: sign(victimId) })
    victim.send({ type: 'start' })
    await victim.messages(1)
    const attacker = await connect(chat)
    attacker.send({ type: 'hello', v: 1, user_id: attackerId, user_hash: sign(attackerId) })
    const closed = await attacker.closedWith()
    expect(closed).toMatchObject({ code: CloseCode.invalidIdentity, reason: 'the user id is longer than 100 characters' })
    expect(attacker.received.filter((m) => m.type === 'welcome')).toEqual([])
  })

  test.each([
    ['an e-mail address with capitals', 'Jane@Acme-Corp.io', 'lower-case e-mail address'],
    ['a spaced phone number', '+44 20 7946 0958', 'E.164 phone number'],
    ['spaces around the id', ' jane@acme-corp.io', 'lower-case e-mail address'],
  ])('%s, even signed as passed, is refused with 4010 naming the form to sign', async (_, userId, form) => {
    const client = await connect(chat)
    client.send({ type: 'hello', v: 1, user_id: userId, user_hash: sign(userId) })
    const closed = await client.closedWith()
    expect(closed.code).toBe(CloseCode.identityNotCanonical)
    expect(closed.reason).toContain(form)
  })

  test('the canonical spelling, signed, is accepted', async () => {
    const client = await connect(chat)
    await client.hello({ user_id: '+442079460958', user_hash: sign('+442079460958') })
  })

  test('anonymous visitors need no hash', async () => {
    await (await connect(chat)).hello()
  })

  test('without a secret no hash is needed', async () => {
    const plain = await setUpWebChat(suite.server)
    await (await connect(plain)).hello({ user_id: 'jane@acme-corp.io' })
  })
})
