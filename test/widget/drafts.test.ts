import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { messageStore } from '../../server/conversations/message-store.ts'
import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'
import type { ConversationRef } from '../../server/events/domain-events.ts'
import { newId } from '../../server/support/new-id.ts'
import { applyDraftFrame, type Draft, withoutDraft } from '../../widget/src/drafts.ts'
import type { Session } from '../../widget/src/session.ts'
import { type LiveServer, liveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { openSession, until } from './support/session-helpers.ts'

describe('draft frames', () => {
  const open: Draft[] = [{ message_id: 'm1', conversation_id: 'c1', text: 'Hel' }]

  test('a delta adds its text where it says it starts, and nowhere else', () => {
    expect(applyDraftFrame(open, { type: 'draft_delta', message_id: 'm1', at: 3, text: 'lo' })).toEqual([{ message_id: 'm1', conversation_id: 'c1', text: 'Hello' }])
    // Twice the same delta (or one from before a reset) does not repeat the text.
    expect(applyDraftFrame(open, { type: 'draft_delta', message_id: 'm1', at: 1, text: 'lo' })).toEqual(open)
    expect(applyDraftFrame(open, { type: 'draft_delta', message_id: 'm9', at: 0, text: 'lo' })).toEqual(open)
  })

  test('a whole draft opens one or replaces its text; a drop or the stored message removes it', () => {
    const two = applyDraftFrame(open, { type: 'draft', conversation_id: 'c1', message_id: 'm2', text: '' })
    expect(two.map((draft) => draft.message_id)).toEqual(['m1', 'm2'])
    expect(applyDraftFrame(two, { type: 'draft', conversation_id: 'c1', message_id: 'm1', text: 'Hello' })[0]!.text).toBe('Hello')
    expect(applyDraftFrame(two, { type: 'draft_dropped', message_id: 'm1' }).map((draft) => draft.message_id)).toEqual(['m2'])
    expect(withoutDraft(two, 'm2').map((draft) => draft.message_id)).toEqual(['m1'])
    expect(withoutDraft(two, 'other')).toBe(two)
  })
})

/**
 * The widget's session (the code the view draws from) against a live Parley, with the bot's
 * answer announced on the server's event bus as the LLM runner announces it.
 */
describe("the widget's session follows the bot's answer", () => {
  let server: LiveServer
  beforeAll(() => {
    server = liveServer()
  })
  afterAll(async () => {
    await server.stop()
  })

  /** A visitor whose chat is open, with the greeting shown: the session and its conversation. */
  async function openChat(): Promise<{ session: Session; ref: ConversationRef }> {
    const chat = await setUpWebChat(server)
    const session = openSession(server, chat.widgetKey)
    await until(() => session.messages().length >= 2, 'the greeting')
    const conversation = server.services.conversations.get(session.messages()[0]!.conversation_id)!
    sessions.push(session)
    return { session, ref: conversation }
  }
  const sessions: Session[] = []
  afterAll(() => {
    for (const session of sessions) session.setActive(false)
  })

  const draft = (ref: ConversationRef, message_id: string, phase: 'started' | 'delta' | 'dropped', text?: string) =>
    server.events.emit('conversation.draft', { conversation: ref, message_id, phase, ...(text === undefined ? {} : { text }) })

  function storeAnswer(ref: ConversationRef, id: string, text: string): ChatMessage {
    const message: ChatMessage = { id, conversation_id: ref.id, role: 'bot', content: { kind: 'text', text }, created_at: new Date().toISOString() }
    messageStore(server.db).insert(message)
    server.events.emit('conversation.messages', { conversation: ref, messages: [message] })
    return message
  }

  const shownTimes = (session: Session, id: string) => session.messages().filter((message) => message.id === id).length

  test('the draft grows with the deltas, then the stored message takes its place, once', async () => {
    const { session, ref } = await openChat()
    const id = newId()
    draft(ref, id, 'started')
    await until(() => session.drafts().length === 1, 'the draft')
    for (const fragment of ['It ', 'is ', 'open.']) draft(ref, id, 'delta', fragment)
    await until(() => session.drafts()[0]?.text === 'It is open.', 'the whole draft')
    storeAnswer(ref, id, 'It is open.')
    await until(() => shownTimes(session, id) === 1, 'the stored message')
    expect(session.drafts()).toEqual([])
    expect(session.messages().at(-1)!.content).toEqual({ kind: 'text', text: 'It is open.' })
  })

  test('after a reconnect mid-answer it shows the draft so far, then the stored message once', async () => {
    const { session, ref } = await openChat()
    const id = newId()
    draft(ref, id, 'started')
    draft(ref, id, 'delta', 'Before the break, ')
    await until(() => session.drafts()[0]?.text === 'Before the break, ', 'the first delta')
    session.setActive(false)
    draft(ref, id, 'delta', 'while away, ')
    await Bun.sleep(60)
    session.setActive(true)
    await until(() => session.connection() === 'open', 'the reconnect')
    await until(() => session.drafts()[0]?.text === 'Before the break, while away, ', 'the draft so far')
    draft(ref, id, 'delta', 'after.')
    await until(() => session.drafts()[0]?.text === 'Before the break, while away, after.', 'the next delta')
    storeAnswer(ref, id, 'Before the break, while away, after.')
    await until(() => shownTimes(session, id) === 1, 'the stored message')
    expect(session.drafts()).toEqual([])
  })

  test('a message stored while the widget was away arrives once in the welcome, and its draft is gone', async () => {
    const { session, ref } = await openChat()
    const id = newId()
    draft(ref, id, 'started')
    draft(ref, id, 'delta', 'Almost')
    await until(() => session.drafts()[0]?.text === 'Almost', 'the draft')
    session.setActive(false)
    storeAnswer(ref, id, 'Almost done.')
    session.setActive(true)
    await until(() => session.connection() === 'open' && shownTimes(session, id) === 1, 'the resync')
    expect(session.drafts()).toEqual([])
  })

  test('a draft dropped while the widget was away is gone after the reconnect', async () => {
    const { session, ref } = await openChat()
    const id = newId()
    draft(ref, id, 'started')
    draft(ref, id, 'delta', 'Doomed')
    await until(() => session.drafts().length === 1, 'the draft')
    session.setActive(false)
    draft(ref, id, 'dropped')
    session.setActive(true)
    await until(() => session.connection() === 'open', 'the reconnect')
    // The next answer's draft comes after anything the welcome brought.
    const next = newId()
    draft(ref, next, 'started')
    await until(() => session.drafts().some((shown) => shown.message_id === next), 'the next draft')
    expect(session.drafts().map((shown) => shown.message_id)).toEqual([next])
    expect(shownTimes(session, id)).toBe(0)
  })

  test("shows the bot typing while its tools run, and forgets a dropped draft at once", async () => {
    const { session, ref } = await openChat()
    server.events.emit('conversation.typing', { conversation: ref, active: true, from: 'bot' })
    await until(() => session.typing() === 'bot', 'the bot typing')
    const id = newId()
    draft(ref, id, 'started')
    await until(() => session.drafts().length === 1, 'the draft')
    draft(ref, id, 'dropped')
    await until(() => session.drafts().length === 0, 'the drop')
  })
})
