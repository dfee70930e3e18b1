import { describe, expect, test } from 'bun:test'
import { messageStore } from '../../server/conversations/message-store.ts'
import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'
import type { ConversationRef } from '../../server/events/domain-events.ts'
import { newId } from '../../server/support/new-id.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { waitUntil } from './support/widget-page.ts'

/**
 * The bot's answer being written, in Chromium, when the connection drops in the middle: the
 * server's event bus carries what the LLM runner announces (drafts, then the stored message),
 * and the widget must end with exactly what the server stored, once.
 */
describe('a draft survives a dropped connection in Chromium', () => {
  const suite = browserSuite((s) => s.parley.resume())

  async function talking() {
    const { visitor } = await suite.talkingVisitor()
    const conversationId = visitor.received('message')[0]!.message.conversation_id
    const ref: ConversationRef = suite.parley.app.services.conversations.get(conversationId)!
    const draft = (id: string, phase: 'started' | 'delta' | 'dropped', text?: string) =>
      suite.parley.app.events.emit('conversation.draft', { conversation: ref, message_id: id, phase, ...(text === undefined ? {} : { text }) })
    const store = (id: string, text: string) => {
      const message: ChatMessage = { id, conversation_id: ref.id, role: 'bot', content: { kind: 'text', text }, created_at: new Date().toISOString() }
      messageStore(suite.parley.app.db).insert(message)
      suite.parley.app.events.emit('conversation.messages', { conversation: ref, messages: [message] })
    }
    const draftText = () => visitor.page.evaluate(() => document.querySelector('#parley-widget')?.shadowRoot?.querySelector('.msg.draft p.text')?.textContent ?? null)
    const drafts = () => visitor.page.locator('#parley-widget .msg.draft').count()
    return { visitor, draft, store, draftText, drafts }
  }

  test('the draft so far comes back after the reconnect, goes on growing, and the stored message replaces it once', async () => {
    const { visitor, draft, store, draftText, drafts } = await talking()
    const id = newId()
    draft(id, 'started')
    draft(id, 'delta', 'Before the break, ')
    await waitUntil(async () => (await draftText()) === 'Before the break, ', 'the draft is shown')

    await suite.parley.pause()
    draft(id, 'delta', 'while away, ')
    suite.parley.resume()
    await visitor.connected(2)
    await waitUntil(async () => (await draftText()) === 'Before the break, while away, ', 'the draft so far after the reconnect', { seen: draftText })
    draft(id, 'delta', 'and after.')
    await waitUntil(async () => (await draftText()) === 'Before the break, while away, and after.', 'the draft grows again', { seen: draftText })

    store(id, 'Before the break, while away, and after.')
    await waitUntil(async () => (await drafts()) === 0, 'the draft is replaced')
    const shown = await visitor.shown()
    expect(shown.filter((message) => message.text === 'Before the break, while away, and after.')).toHaveLength(1)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('an answer stored while the widget was away arrives once, with no draft left behind', async () => {
    const { visitor, draft, store, draftText, drafts } = await talking()
    const id = newId()
    draft(id, 'started')
    draft(id, 'delta', 'Almost')
    await waitUntil(async () => (await draftText()) === 'Almost', 'the draft is shown')
    await suite.parley.pause()
    store(id, 'Almost done, and stored.')
    suite.parley.resume()
    await visitor.connected(2)
    await visitor.shownText('Almost done, and stored.', 'bot')
    expect(await drafts()).toBe(0)
    expect((await visitor.shown()).filter((message) => message.text.startsWith('Almost'))).toHaveLength(1)
  }, E2E_TIMEOUT)

  test('a draft dropped while the widget was away is gone after the reconnect', async () => {
    const { visitor, draft, draftText, drafts } = await talking()
    const id = newId()
    draft(id, 'started')
    draft(id, 'delta', 'Doomed')
    await waitUntil(async () => (await draftText()) === 'Doomed', 'the draft is shown')
    await suite.parley.pause()
    draft(id, 'dropped')
    suite.parley.resume()
    await visitor.connected(2)
    // The next answer's draft comes after anything the welcome brought.
    const next = newId()
    draft(next, 'started')
    draft(next, 'delta', 'Fresh')
    await waitUntil(async () => (await draftText()) === 'Fresh', 'the next draft is shown')
    expect(await drafts()).toBe(1)
  }, E2E_TIMEOUT)
})
