import { describe, expect, test } from 'bun:test'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, textOf, type WebChat } from '../../support/web-chat.ts'

const suite = socketSuite()
const { connect } = suite

const api = (chat: WebChat, path = '') => `/api/dev/v1/chatbots/${chat.chatbotId}/conversations${path}`
const readsOf = async (chat: WebChat, id: string) => (await suite.server.call('GET', api(chat, `/${id}`))).body.reads

describe('"seen" marks', () => {
  test('the bot reads what it answers: the visitor gets a read mark for their message, stored for agents', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'start' })
    await client.messages(2)
    client.send({ type: 'message', client_id: 'm1', text: 'pricing?' })
    const [echo] = await client.messages(2)
    const read = await client.next('read')
    expect(read).toMatchObject({ conversation_id: echo!.conversation_id, up_to: echo!.id })
    expect((await readsOf(chat, echo!.conversation_id)).team).toEqual({ up_to: echo!.id, at: read.at })
  })

  test('in a handoff nobody has read the visitor until an agent marks it; then the widget learns it, and a welcome carries it', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    const welcome = await client.hello()
    client.send({ type: 'start' })
    const [first] = await client.messages(2)
    const id = first!.conversation_id
    await suite.server.call('PATCH', api(chat, `/${id}`), { body: { status: 'handoff' } })
    await client.next('status')
    client.send({ type: 'message', client_id: 'm1', text: 'Anyone there?' })
    const [echo] = await client.messages(1)
    expect((await readsOf(chat, id)).team).toBeNull()

    const marked = await suite.server.call('POST', api(chat, `/${id}/read`))
    expect(marked.status).toBe(200)
    expect(marked.body.team.up_to).toBe(echo!.id)
    expect(await client.next('read')).toMatchObject({ conversation_id: id, up_to: echo!.id })

    const again = await connect(chat)
    expect((await again.hello({ visitor_token: welcome.visitor_token })).conversation?.read_by_team).toEqual(marked.body.team)
  })

  test('an agent may mark up to a given message; a mark never moves back; a message of another conversation is refused with 422', async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'start' })
    const [first, second] = await client.messages(2)
    const id = first!.conversation_id
    const forward = await suite.server.call('POST', api(chat, `/${id}/read`), { body: { up_to: second!.id } })
    expect(forward.body.team.up_to).toBe(second!.id)
    const back = await suite.server.call('POST', api(chat, `/${id}/read`), { body: { up_to: first!.id } })
    expect(back.status).toBe(200)
    expect(back.body.team).toEqual(forward.body.team)

    const other = await setUpWebChat(suite.server)
    const stranger = await connect(other)
    await stranger.hello()
    stranger.send({ type: 'start' })
    const [foreign] = await stranger.messages(2)
    const refused = await suite.server.call('POST', api(chat, `/${id}/read`), { body: { up_to: foreign!.id } })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual([{ path: '/up_to', message: 'is not a message of this conversation' }])
    // Another workspace's key finds nothing.
    const theirs = await suite.server.call('POST', api(chat, `/${id}/read`), { key: suite.server.otherWorkspaceKey() })
    expect(theirs.status).toBe(404)
  })

  test("the visitor's read frame is stored for agents, only forward, only for messages of their conversation", async () => {
    const chat = await setUpWebChat(suite.server)
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'start' })
    const [first, second] = await client.messages(2)
    const id = first!.conversation_id
    client.send({ type: 'read', up_to: second!.id })
    client.send({ type: 'read', up_to: first!.id })
    client.send({ type: 'ping' })
    await client.next('pong')
    const reads = await readsOf(chat, id)
    expect(reads.visitor.up_to).toBe(second!.id)
    expect(textOf(second!.content)).toBe('Pick one')

    client.send({ type: 'read', up_to: 'not-a-message' })
    expect(await client.next('error')).toMatchObject({ code: 'unknown_message' })
    const fresh = await connect(chat)
    await fresh.hello()
    fresh.send({ type: 'read', up_to: second!.id })
    expect(await fresh.next('error')).toMatchObject({ code: 'unknown_message' })
  })
})
