import { describe, expect, test } from 'bun:test'
import { CloseCode } from '../../server/protocol/close-codes.ts'
import { textOf } from '../support/web-chat.ts'
import { inViewport } from '../journeys/support/in-viewport.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { texts, waitUntil } from './support/widget-page.ts'
import { expectAccessible } from '../journeys/support/accessible.ts'

describe('the widget survives a dropped connection in Chromium', () => {
  const suite = browserSuite((s) => s.parley.resume())

  /** A visitor with the chat open and the flow's first messages shown. */
  async function talking() {
    const { chat, visitor } = await suite.talkingVisitor()
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const { id } = await desk.onlyConversation()
    /** What the server stored, as the widget should show it: each message once, in order. */
    const stored = async () => (await desk.messages(id)).map((message) => textOf(message.content as Parameters<typeof textOf>[0]))
    return { chat, visitor, desk, id, stored }
  }

  test('the server stops and starts again on the same port: offline notice, then resync with what was missed, and the message typed meanwhile sent once', async () => {
    const { visitor, desk, id, stored } = await talking()
    const offline = visitor.page.locator('#parley-widget .notice.offline')

    await suite.parley.pause()
    await offline.waitFor({ state: 'attached' })
    expect(await offline.textContent()).toBe('You are offline. Reconnecting…')
    await expectAccessible(visitor.page, "the widget's offline notice")

    // While it is down: an agent answers (stored, not delivered) and the visitor writes (kept, dimmed).
    await desk.say(id, 'Sorry, we were restarting.', 'Sam')
    await visitor.sendText('Hello? Anyone?')
    const waiting = await visitor.shownText('Pick one')
    expect(waiting.at(-1)).toMatchObject({ role: 'visitor', text: 'Hello? Anyone?', pending: true })
    await expectAccessible(visitor.page, 'a message written offline, not sent yet')

    suite.parley.resume()
    await visitor.connected(2)
    await offline.waitFor({ state: 'detached' })
    const lastBefore = visitor.received('message').filter((frame) => frame.message.role === 'bot').at(-1)?.message.id
    expect(visitor.sent('hello').at(-1)?.after).toBe(lastBefore)
    await visitor.shownWhen(
      (messages) => messages.some((m) => m.text === 'Hello? Anyone?' && !m.pending) && messages.some((m) => m.text === 'Sorry, we were restarting.'),
      'the missed agent message and the confirmed visitor message',
    )
    // Exactly what the server has, each once, in the server's order.
    expect(texts(await visitor.shown())).toEqual(await stored())
    expect((await stored()).filter((text) => text === 'Hello? Anyone?')).toHaveLength(1)
    expect(texts(await visitor.shown())).toEqual(['Welcome!', 'Hi! How can I help?', 'Pick one', 'Sorry, we were restarting.', 'Hello? Anyone?'])
  }, E2E_TIMEOUT)

  test('the server closes the sockets itself (going away): the widget reconnects, resyncs and shows nothing twice', async () => {
    const { visitor, desk, id, stored } = await talking()
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Sales' }).click()
    await visitor.shownText('What is your email?', 'bot')

    suite.parley.app.hub.closeAll(CloseCode.goingAway, 'server shutting down')
    await desk.say(id, 'Missed this one?')
    await visitor.connected(2)
    await visitor.shownText('Missed this one?', 'agent')
    await visitor.sendText('ada@lovelace.dev')
    await visitor.shownText('ada@lovelace.dev', 'visitor')
    expect(texts(await visitor.shown())).toEqual(await stored())
    const ids = visitor.received('message').map((frame) => frame.message.id)
    expect(new Set(ids).size).toBe(ids.length)
  }, E2E_TIMEOUT)

  test('more was missed than one resync carries: the widget shows the newest messages, and the older ones on request', async () => {
    const { visitor, desk, id, stored } = await talking()
    await suite.parley.pause()
    for (let n = 1; n <= 60; n++) await desk.say(id, `Note ${n}`)
    suite.parley.resume()
    await visitor.connected(2)
    // Nothing in between is lost: the newest 50 stored messages, in order, then the rest on request.
    const newest = (await stored()).slice(-50)
    await visitor.shownWhen((messages) => JSON.stringify(texts(messages)) === JSON.stringify(newest), 'the newest 50 messages are shown')
    const older = visitor.page.locator('#parley-widget button.older')
    await older.click()
    await visitor.shownWhen((messages) => messages.length === newest.length + 13, 'the earlier messages are shown too')
    expect(texts(await visitor.shown())).toEqual(await stored())
    // They came in above: the line the visitor was reading stays in view, and nothing calls them new.
    const wasFirst = visitor.page.locator('#parley-widget .log .msg', { hasText: newest[0]! }).first()
    expect(await inViewport(wasFirst)).toEqual({ ok: true, why: '' })
    expect(await visitor.page.locator('#parley-widget .new-below').count()).toBe(0)
    expect(await older.count()).toBe(0)
    // How: the resync's welcome answered the gap with the newest page and has_more; one hello was enough.
    expect(visitor.sent('hello').map((hello) => hello.after !== undefined)).toEqual([false, true])
  }, E2E_TIMEOUT)

  test('a refusal that retrying cannot fix (the integration is deleted) ends the chat without retrying', async () => {
    const { chat, visitor } = await talking()
    const removed = await suite.parley.app.call('DELETE', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/${chat.integrationId}`)
    expect(removed.status).toBe(204)
    await visitor.page.locator('#parley-widget .notice', { hasText: 'Chat is unavailable right now.' }).waitFor()
    await expectAccessible(visitor.page, "the widget's unavailable notice")
    expect(visitor.warnings().some((warning) => warning.includes(`(${CloseCode.integrationRemoved}`))).toBe(true)
    expect(await visitor.openSockets()).toBe(0)
    expect(visitor.sockets).toHaveLength(1)
  }, E2E_TIMEOUT)
})
