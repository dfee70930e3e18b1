import { describe, expect, test } from 'bun:test'
import { messageStore } from '../../server/conversations/message-store.ts'
import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'
import type { ConversationRef } from '../../server/events/domain-events.ts'
import { newId } from '../../server/support/new-id.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { expectAccessible } from '../journeys/support/accessible.ts'
import { DEVICES, expectInViewport, expectOutOfViewport, inViewport, screenshot } from '../journeys/support/journey.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { WidgetPage } from './support/widget-page.ts'

/**
 * The widget's log on a phone, once it is taller than the chat: every kind of entry that
 * arrives while the visitor is at the bottom is drawn in view (a person's messages, the
 * person typing, a draft as it grows, the "Conversation ended" divider and the rating); once
 * they have scrolled up, nothing moves under them and a "New message" pill takes them down.
 */
describe('the widget log stays pinned to the bottom (Chromium, a 390x844 phone)', () => {
  const suite = browserSuite()

  test('messages, typing, drafts, the end divider and the rating arrive in view; scrolled up, a pill says a new message came', async () => {
    const chat = await setUpWebChat(suite.parley.app, { web: { widget_config: { rating: 'stars' } } })
    suite.host.page('/phone', embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser, DEVICES.phone)
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', '/phone'))
    await visitor.openChat()
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Support' }).click()
    await visitor.shownText('A person will answer you here shortly.')
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const { id: conversationId } = await desk.onlyConversation()
    const last = visitor.page.locator('#parley-widget .log .msg').last()

    // A person answers in many lines, each taller than the last bubble's spare room: each is in view as it lands.
    for (let line = 1; line <= 9; line++) {
      await desk.say(conversationId, `Line ${line} of a long answer that wraps over two lines on a phone.`, 'Ada')
      await visitor.shownText(`Line ${line} of a long answer that wraps over two lines on a phone.`, 'agent')
      await expectInViewport(last, `the person's line ${line}`)
    }
    await desk.typing(conversationId, true)
    await expectInViewport(visitor.page.locator('#parley-widget .log .msg.typing'), 'the person typing')
    await desk.typing(conversationId, false)

    // The bot's answer as it is written (the LLM runner's drafts on the event bus).
    const ref: ConversationRef = suite.parley.app.services.conversations.get(conversationId)!
    const draftId = newId()
    suite.parley.app.events.emit('conversation.draft', { conversation: ref, message_id: draftId, phase: 'started' })
    for (const words of ['A draft ', 'that grows ', 'line after line, ', 'well past the bottom ', 'of the log on a narrow phone screen.']) {
      suite.parley.app.events.emit('conversation.draft', { conversation: ref, message_id: draftId, phase: 'delta', text: words })
      await expectInViewport(visitor.page.locator('#parley-widget .msg.draft'), `the draft after "${words}"`)
    }
    const stored: ChatMessage = { id: draftId, conversation_id: ref.id, role: 'bot', content: { kind: 'text', text: 'A draft, now stored.' }, created_at: new Date().toISOString() }
    messageStore(suite.parley.app.db).insert(stored)
    suite.parley.app.events.emit('conversation.messages', { conversation: ref, messages: [stored] })
    await visitor.shownText('A draft, now stored.')
    await expectInViewport(last, 'the stored answer')

    // Scrolled up to read: a new line does not move the log, and a pill says something came.
    const log = visitor.page.locator('#parley-widget .log')
    // As a visitor's own scrolling would: until the widget has seen it (its scroll event comes a
    // frame later, and a bubble still settling may pull a pinned log down once more).
    for (let tries = 0; ; tries++) {
      const stayed = await log.evaluate(async (element) => {
        element.scrollTo({ top: 0 })
        for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve))
        return element.scrollTop === 0
      })
      if (stayed) break
      if (tries > 20) throw new Error('the log did not stay scrolled up')
    }
    const pill = visitor.page.locator('#parley-widget .new-below')
    expect(await pill.count()).toBe(0)
    await desk.say(conversationId, 'A line while the visitor reads above.', 'Ada')
    await visitor.shownText('A line while the visitor reads above.', 'agent')
    await expectInViewport(pill, 'the "New message" pill')
    expect(await pill.textContent()).toContain('New message')
    await screenshot(visitor.page, 'widget-new-message-pill')
    await expectAccessible(visitor.page, 'the new-message pill over a scrolled log')
    expect(await log.evaluate((element) => element.scrollTop)).toBe(0)
    expect((await inViewport(last)).ok).toBe(false)
    await pill.click()
    await expectInViewport(last, 'the new line, after the pill is tapped')
    await expectOutOfViewport(pill, 'the pill, once the visitor is at the bottom')

    // The person closes: the divider and the stars are in view, and so is the comment box a star opens.
    await desk.setStatus(conversationId, 'closed')
    await expectInViewport(visitor.page.locator('#parley-widget .ended').last(), 'the "Conversation ended" divider')
    const rating = visitor.page.locator('#parley-widget .rating')
    await expectInViewport(rating, 'the rating')
    await rating.getByRole('button', { name: '4 of 5' }).click()
    await expectInViewport(rating.getByRole('button', { name: 'Send rating' }), 'the rating\'s send button')
    await rating.getByRole('button', { name: 'Send rating' }).click()
    await expectInViewport(rating.getByRole('status'), 'the thanks for the rating')
    // The host page itself never scrolled.
    expect(await visitor.page.evaluate(() => window.scrollY)).toBe(0)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)
})
