import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { activePerson, browser } from '../people/support/people-context.ts'
import { liveServer, type LiveServer } from '../support/live-server.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { DeskClient } from './support/desk-client.ts'
import { DESK, flush, openConversation } from './support/desk-context.ts'
import { ORIGIN } from '../people/support/people-context.ts'

/**
 * "Waiting" means a visitor waits for a person: a person's reply ends the wait until the
 * visitor writes again, a reply to a conversation nobody has makes it the replier's, and the
 * wait counts from the visitor's oldest unanswered message. The lists, the row, the waiting
 * view's order and the desk socket all say the same.
 */
describe('waiting for a person', () => {
  let server: LiveServer
  let chat: WebChat
  let ada: { id: string; cookie: string }
  let sam: { id: string; cookie: string }
  const desks: DeskClient[] = []
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
  const as = (person: { cookie: string }) => ({ key: null, headers: browser(person.cookie) })
  const waitingIds = async () => (await server.call('GET', `${DESK}/conversations?view=waiting`)).body.items.map((item: { id: string }) => item.id)
  const row = async (id: string) => (await server.call('GET', `${DESK}/conversations/${id}`)).body
  const visitorSays = async (opened: ReturnType<typeof openConversation>, text: string) => {
    server.services.conversations.visitorSays(opened.conversation, { clientId: crypto.randomUUID(), content: { kind: 'text', text } }, opened.ctx)
    await flush()
  }
  const reply = async (person: { cookie: string }, id: string, text: string) => {
    const sent = await server.call('POST', `${DESK}/conversations/${id}/replies`, { ...as(person), body: { text } })
    expect(sent.status).toBe(201)
    await flush()
  }

  test("a person's reply ends the wait and assigns a conversation nobody had to the replier; the visitor writing again starts a new wait from that message", async () => {
    const opened = openConversation(server, chat, { handoff: true, says: 'my parcel is late' })
    await flush()
    const handedOff = await row(opened.id)
    expect(handedOff).toMatchObject({ status: 'handoff', assignee: null, waiting_since: handedOff.handoff_at, waiting_seconds: expect.any(Number) })
    expect(await waitingIds()).toContain(opened.id)

    await reply(sam, opened.id, 'Let me look it up.')
    const answered = await row(opened.id)
    expect(answered).toMatchObject({ status: 'handoff', waiting_since: null, waiting_seconds: null, assignee: { id: sam.id, display_name: 'sam' } })
    // The row's last message says who wrote it.
    expect(answered.last_message).toMatchObject({ role: 'agent', author: 'sam', preview: 'Let me look it up.' })
    expect(await waitingIds()).not.toContain(opened.id)
    const events = (await server.call('GET', `${DESK}/conversations/${opened.id}/events`)).body.items
    expect(events.at(-1)).toMatchObject({ kind: 'assigned', actor: { id: sam.id }, data: { assignee: { id: sam.id } } })

    // Seven more replies, by Sam and by Ada: still answered, still Sam's.
    for (let n = 0; n < 7; n++) await reply(n % 2 ? ada : sam, opened.id, `Reply ${n}`)
    expect(await row(opened.id)).toMatchObject({ waiting_seconds: null, assignee: { id: sam.id } })

    // The visitor writes twice: the wait counts from the first of the two.
    await Bun.sleep(5)
    await visitorSays(opened, 'Any news?')
    const first = server.services.conversations.history(opened.id).messages.at(-1)!
    await Bun.sleep(5)
    await visitorSays(opened, 'Hello?')
    const waitingAgain = await row(opened.id)
    expect(waitingAgain).toMatchObject({ waiting_since: first.created_at, assignee: { id: sam.id } })
    expect(await waitingIds()).toContain(opened.id)
    await reply(ada, opened.id, 'It ships today.')
    expect(await row(opened.id)).toMatchObject({ waiting_since: null, assignee: { id: sam.id } })
  })

  test('an API key answering ends the wait but assigns nobody; a person taking over from the bot keeps nobody waiting; closing ends it', async () => {
    const byKey = openConversation(server, chat, { handoff: true, says: 'question for a machine' })
    await flush()
    const said = await server.call('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${byKey.id}/messages`, { body: { text: 'From our helpdesk', author: 'Helpdesk' } })
    expect(said.status).toBe(201)
    await flush()
    expect(await row(byKey.id)).toMatchObject({ waiting_seconds: null, assignee: null })

    const withBot = openConversation(server, chat, { says: 'just browsing' })
    await flush()
    const taken = await server.call('POST', `${DESK}/conversations/${withBot.id}/status`, { ...as(ada), body: { status: 'handoff' } })
    expect(taken.body).toMatchObject({ status: 'handoff', waiting_seconds: null, assignee: { id: ada.id } })
    expect(await waitingIds()).not.toContain(withBot.id)

    const closing = openConversation(server, chat, { handoff: true, says: 'bye' })
    await flush()
    await server.call('POST', `${DESK}/conversations/${closing.id}/status`, { ...as(ada), body: { status: 'closed' } })
    expect(await row(closing.id)).toMatchObject({ status: 'closed', waiting_seconds: null })
  })

  test('the waiting view is ordered by the oldest unanswered message, and pages in that order', async () => {
    const older = openConversation(server, chat, { handoff: true, says: 'first in line' })
    await flush()
    await Bun.sleep(5)
    const newer = openConversation(server, chat, { handoff: true, says: 'second in line' })
    await flush()
    // The older one is answered, then the visitor writes again: it goes behind the newer one.
    await reply(sam, older.id, 'On it')
    await Bun.sleep(5)
    await visitorSays(older, 'Thanks, one more thing')
    const ids = (await waitingIds()).filter((id: string) => id === older.id || id === newer.id)
    expect(ids).toEqual([newer.id, older.id])
    const pages: string[] = []
    let cursor: string | null = null
    do {
      const page: { body: { items: { id: string }[]; next_cursor: string | null } } = await server.call('GET', `${DESK}/conversations?view=waiting&limit=1${cursor ? `&cursor=${cursor}` : ''}`)
      pages.push(...page.body.items.map((item) => item.id))
      cursor = page.body.next_cursor
    } while (cursor)
    expect(pages).toEqual(await waitingIds())
  })

  test('the desk socket says when a wait starts and ends, for conversations a desk does not show yet', async () => {
    const opened = openConversation(server, chat, { handoff: true, says: 'socket check' })
    await flush()
    await reply(sam, opened.id, 'Answered')
    const desk = await DeskClient.connect(`ws://127.0.0.1:${server.server.port}/app/socket`, { cookie: ada.cookie, origin: ORIGIN })
    desks.push(desk)
    await desk.next('ready')
    await visitorSays(opened, 'Back again')
    const started = await desk.next((frame) => frame.type === 'conversation' && frame.change === 'waiting')
    expect(started).toMatchObject({ conversation_id: opened.id, status: 'handoff', assignee_id: sam.id, waiting_since: expect.any(String) })
    await reply(sam, opened.id, 'Answered again')
    const ended = await desk.next((frame) => frame.type === 'conversation' && frame.change === 'waiting')
    expect(ended).toMatchObject({ conversation_id: opened.id, waiting_since: null })
    // The bot's chatter with other visitors says nothing of waits.
    openConversation(server, chat, { says: 'only the bot hears this' })
    await flush()
    await desk.next((frame) => frame.type === 'message' && frame.message.role === 'bot' && frame.conversation_id !== opened.id)
    expect(desk.received.some((frame) => frame.change === 'waiting')).toBe(false)
  })
})
