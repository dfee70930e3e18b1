import { describe, expect, test } from 'bun:test'
import { setUpWebChat } from '../support/web-chat.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'
import { expectAccessible } from '../journeys/support/accessible.ts'

describe('the preview of a new message above the closed launcher, in Chromium', () => {
  const suite = browserSuite()
  const { opened } = suite

  /** A fresh SALES_FLOW chatbot on its own page; the visitor opened the chat once, then closed it. */
  async function closedChat(web: Record<string, unknown> = {}) {
    const chat = await setUpWebChat(suite.parley.app, { web })
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser, { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })
    opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', path))
    await visitor.openChat()
    await visitor.shownText('Pick one')
    await visitor.page.locator('#parley-widget .window .close').click()
    await visitor.window.waitFor({ state: 'detached' })
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const { id } = await desk.onlyConversation()
    return { visitor, desk, conversationId: id, url: suite.host.url('shop.test', path) }
  }

  const previewOf = (visitor: WidgetPage) => ({
    card: visitor.page.locator('#parley-widget .preview'),
    sender: visitor.page.locator('#parley-widget .preview .preview-sender'),
    text: visitor.page.locator('#parley-widget .preview .preview-text'),
    open: visitor.page.locator('#parley-widget .preview .preview-open'),
    dismiss: visitor.page.locator('#parley-widget .preview .preview-dismiss'),
  })

  test("an agent's message shows as a card with the agent's name and its text, markup as text; clicking it opens the chat", async () => {
    const { visitor, desk, conversationId } = await closedChat()
    const preview = previewOf(visitor)
    expect(await preview.card.count()).toBe(0)
    const region = visitor.page.locator('#parley-widget .preview-region')
    expect([await region.getAttribute('role'), await region.getAttribute('aria-live')]).toEqual(['status', 'polite'])

    await desk.say(conversationId, 'Hi <b>there</b> <img src=x onerror="window.__injected=1">, can I help?', 'Maya')
    await preview.card.waitFor({ state: 'visible' })
    expect(await preview.sender.textContent()).toBe('Maya')
    expect(await preview.text.textContent()).toBe('Hi <b>there</b> <img src=x onerror="window.__injected=1">, can I help?')
    expect(await visitor.page.locator('#parley-widget .preview b, #parley-widget .preview img').count()).toBe(0)
    expect(await visitor.page.evaluate(() => (window as { __injected?: number }).__injected)).toBeUndefined()
    // The badge still counts alongside.
    expect(await visitor.page.locator('#parley-widget .launcher .badge').textContent()).toBe('1')
    await expectAccessible(visitor.page, "the preview card of an agent's message above the closed launcher")

    await preview.open.click()
    await visitor.window.waitFor({ state: 'visible' })
    expect(await preview.card.count()).toBe(0)
    await visitor.shownText('Hi <b>there</b> <img src=x onerror="window.__injected=1">, can I help?', 'agent')
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('a long message is cut to 120 characters; the close button dismisses the card (the badge stays) until the next message', async () => {
    const { visitor, desk, conversationId } = await closedChat()
    const preview = previewOf(visitor)
    await desk.say(conversationId, `Our summer sale: ${'everything must go, '.repeat(10)}today only.`, 'Maya')
    await preview.card.waitFor({ state: 'visible' })
    const shown = (await preview.text.textContent()) ?? ''
    expect(Array.from(shown).length).toBe(120)
    expect(shown.startsWith('Our summer sale: everything must go,')).toBe(true)
    expect(shown.endsWith('…')).toBe(true)

    await preview.dismiss.click()
    await preview.card.waitFor({ state: 'detached' })
    expect(await visitor.page.locator('#parley-widget .launcher .badge').textContent()).toBe('1')
    expect(await visitor.window.count()).toBe(0)
    expect((await visitor.focused()).widget).toBe('button.launcher')

    await desk.say(conversationId, 'Still there?')
    await preview.card.waitFor({ state: 'visible' })
    expect(await preview.text.textContent()).toBe('Still there?')
    // Without an author the agent is "Agent".
    expect(await preview.sender.textContent()).toBe('Agent')
    // Opening through the launcher also takes the card away.
    await visitor.openChat()
    expect(await preview.card.count()).toBe(0)
  }, E2E_TIMEOUT)

  test("the chatbot's messages preview under its display name; the visitor's own messages (from another tab) never do", async () => {
    const { visitor, desk, conversationId } = await closedChat({ widget_config: { bot_display_name: 'Shop helper' } })
    const preview = previewOf(visitor)
    // The same visitor in a second tab, where the chat is open: what they do there reaches this closed tab too.
    const other = await visitor.newTab()
    await other.goto(visitor.page.url())
    await other.openChat()
    await other.page.locator('#parley-widget button.choice', { hasText: 'Sales' }).click()
    await preview.card.waitFor({ state: 'visible' })
    await waitUntil(async () => (await preview.text.textContent()) === 'What is your email?', 'the bot\'s answer is previewed', {
      seen: () => preview.text.textContent(),
    })
    expect(await preview.sender.textContent()).toBe('Shop helper')

    // With an agent on it the bot is silent: the visitor's own text arrives here and changes nothing.
    await desk.setStatus(conversationId, 'handoff')
    const before = visitor.received('message').length
    await other.sendText('my own words')
    await waitUntil(() => visitor.received('message').slice(before).some((m) => m.message.role === 'visitor'), 'this tab received the visitor message')
    expect(await preview.text.textContent()).toBe('What is your email?')
    await preview.dismiss.click()
    await preview.card.waitFor({ state: 'detached' })
    await other.sendText('and more of mine')
    await waitUntil(() => visitor.received('message').slice(before).filter((m) => m.message.role === 'visitor').length === 2, 'this tab received the second one')
    expect(await preview.card.count()).toBe(0)
  }, E2E_TIMEOUT)
})
