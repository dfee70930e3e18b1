import { describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { SALES_FLOW, setUpWebChat } from '../support/web-chat.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { texts, WidgetPage, waitUntil } from './support/widget-page.ts'

describe('talking to a chatbot through the widget in Chromium', () => {
  const suite = browserSuite()
  const { opened } = suite

  /** A fresh chatbot (SALES_FLOW unless told) embedded on its own page of shop.test. */
  async function chatPage(options: Parameters<typeof setUpWebChat>[1] = {}) {
    const chat = await setUpWebChat(suite.parley.app, options)
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', path))
    return { chat, visitor, url: suite.host.url('shop.test', path) }
  }

  test('embedded with async, the bubble shows; opening it greets, then the flow speaks', async () => {
    const { visitor } = await chatPage({ web: { greeting_message: 'Welcome to the shop!' } })
    await visitor.launcher.waitFor({ state: 'visible' })
    expect(await visitor.launcher.textContent()).toContain('Need Help?')
    await visitor.connected()
    await visitor.openChat()
    const shown = await visitor.shownWhen((messages) => messages.length >= 3 && !messages.some((m) => m.pending), 'the greeting and the flow')
    expect(texts(shown)).toEqual(['Welcome to the shop!', 'Hi! How can I help?', 'Pick one'])
    expect(shown.map((message) => message.role)).toEqual(['bot', 'bot', 'bot'])
    expect(shown[2]?.choices).toEqual(['Sales', 'Support'])
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('clicking a button sends the choice and the flow answers; the old buttons stop answering', async () => {
    const { visitor, chat } = await chatPage()
    await visitor.openChat()
    await visitor.shownText('Pick one')
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Sales' }).click()
    const shown = await visitor.shownText('What is your email?', 'bot')
    expect(shown.slice(-2).map((m) => [m.role, m.text])).toEqual([
      ['visitor', 'Sales'],
      ['bot', 'What is your email?'],
    ])
    expect(await visitor.page.locator('#parley-widget button.choice:not([disabled])').count()).toBe(0)
    // The server stored the pick once, as a reply to the button.
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const stored = await desk.messages((await desk.onlyConversation()).id)
    expect(stored.filter((m) => m.role === 'visitor').map((m) => m.content)).toEqual([{ kind: 'reply', reply_to: 'button', id: 'sales', title: 'Sales' }])
  }, E2E_TIMEOUT)

  test('lists, images, video, audio, files and links are drawn from the flow; a list row answers like a button', async () => {
    const media = (path: string) => suite.host.url('shop.test', `/media/${path}`)
    const flow: ConversationFlow = {
      version: 1,
      start: 'menu',
      states: {
        menu: {
          say: [
            { text: 'Our catalogue: https://shop.test/catalogue.' },
            { text: 'Pick a size', button: 'Sizes', sections: [{ title: 'Jackets', rows: [{ id: 'm', title: 'Medium', description: 'Chest 96-101 cm' }, { id: 'l', title: 'Large' }] }] },
          ],
          on: [{ row: 'm', to: 'medium' }, { to: 'menu' }],
        },
        medium: {
          say: [
            { media: { type: 'image', url: media('jacket.png'), caption: 'The trail jacket' } },
            { media: { type: 'video', url: media('fit.mp4') } },
            { media: { type: 'audio', url: media('care.mp3'), caption: 'Care guide' } },
            { media: { type: 'file', url: media('sizes.pdf'), filename: 'sizes.pdf' } },
          ],
          end: true,
        },
      },
    }
    const { visitor, chat } = await chatPage({ flow })
    await visitor.openChat()
    await visitor.shownText('Pick a size')
    const link = visitor.page.locator('#parley-widget .msg.bot a', { hasText: 'https://shop.test/catalogue' })
    expect(await link.evaluate((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')])).toEqual([
      'https://shop.test/catalogue',
      '_blank',
      'noopener noreferrer',
    ])
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Sizes' }).click()
    expect(await visitor.page.locator('#parley-widget .section-title').textContent()).toBe('Jackets')
    await visitor.page.locator('#parley-widget button.row', { hasText: 'Medium' }).click()
    await visitor.page.locator('#parley-widget a[download]').waitFor()
    expect(await visitor.page.locator('#parley-widget img.media').getAttribute('src')).toBe(media('jacket.png'))
    expect(await visitor.page.locator('#parley-widget img.media').getAttribute('alt')).toBe('The trail jacket')
    expect(await visitor.page.locator('#parley-widget video.media').getAttribute('src')).toBe(media('fit.mp4'))
    expect(await visitor.page.locator('#parley-widget audio.media').getAttribute('aria-label')).toBe('Care guide')
    expect(await visitor.page.locator('#parley-widget a.file').evaluate((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('download')])).toEqual([
      'sizes.pdf',
      media('sizes.pdf'),
      'sizes.pdf',
    ])
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const stored = await desk.messages((await desk.onlyConversation()).id)
    expect(stored.filter((m) => m.role === 'visitor').map((m) => m.content)).toEqual([{ kind: 'reply', reply_to: 'row', id: 'm', title: 'Medium' }])
  }, E2E_TIMEOUT)

  test('opening a list scrolls its rows into the message log, keeping its button in view', async () => {
    const topics = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `t${i}`, title: `Topic ${i}`, description: `What topic ${i} covers` }))
    const flow: ConversationFlow = {
      version: 1,
      start: 'menu',
      states: {
        menu: {
          say: [
            ...Array.from({ length: 6 }, (_, i) => ({ text: `Line ${i} of a long welcome that fills the log.` })),
            { text: 'A few topics', button: 'Show topics', sections: [{ title: 'Topics', rows: topics(3) }] },
          ],
          on: [{ button: 'more', to: 'many' }, { to: 'many' }],
        },
        many: { say: [{ text: 'All topics', button: 'Show all', sections: [{ title: 'All', rows: topics(10) }] }], on: [{ to: 'many' }] },
      },
    }
    const { visitor } = await chatPage({ flow })
    await visitor.openChat()
    await visitor.shownText('A few topics')
    /** Where an element sits against the log's visible area: above, inside or below. */
    const placeOf = (locator: ReturnType<typeof visitor.page.locator>) =>
      locator.evaluate((element) => {
        const view = (element.closest('.log') as HTMLElement).getBoundingClientRect()
        const box = element.getBoundingClientRect()
        return box.top < view.top - 1 ? 'above' : box.bottom > view.bottom + 1 ? 'below' : 'inside'
      })
    const pageScroll = await visitor.page.evaluate(() => window.scrollY)

    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Show topics' }).click()
    const lastRow = visitor.page.locator('#parley-widget button.row').last()
    await waitUntil(async () => (await placeOf(lastRow)) === 'inside', 'the last row of a short list is in view', { seen: () => placeOf(lastRow) })
    expect(await placeOf(visitor.page.locator('#parley-widget button.choice', { hasText: 'Show topics' }))).toBe('inside')

    // A list taller than the log: its button goes to the top and the first rows show under it.
    await visitor.sendText('more')
    await visitor.shownText('All topics')
    const showAll = visitor.page.locator('#parley-widget button.choice', { hasText: 'Show all' })
    await showAll.click()
    const firstRow = visitor.page.locator('#parley-widget button.row').first()
    await waitUntil(async () => (await placeOf(firstRow)) === 'inside', 'the first row of a long list is in view', { seen: () => placeOf(firstRow) })
    expect(await placeOf(showAll)).toBe('inside')
    expect(await placeOf(visitor.page.locator('#parley-widget button.row').last())).toBe('below')
    expect(await visitor.page.evaluate(() => window.scrollY)).toBe(pageScroll)
  }, E2E_TIMEOUT)

  test('a conversation a person closes shows its end; the next message starts a new one below a divider, with no fallback', async () => {
    const { visitor, chat } = await chatPage()
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const first = await desk.onlyConversation()
    await desk.setStatus(first.id, 'closed')
    const divider = visitor.page.locator('#parley-widget .ended')
    await divider.waitFor()
    expect(await divider.getAttribute('role')).toBe('separator')
    expect(await divider.textContent()).toBe('Conversation ended')

    await visitor.sendText('hello again')
    const shown = await visitor.shownWhen((messages) => texts(messages).filter((text) => text === 'Pick one').length === 2, 'the flow greets the new conversation')
    // The visitor's text opens the new conversation; nobody asked it anything, so no fallback follows.
    expect(texts(shown).slice(-3)).toEqual(['hello again', 'Hi! How can I help?', 'Pick one'])
    expect(await divider.count()).toBe(1)
    const dividerAbove = await visitor.page.evaluate(() => {
      const root = document.querySelector('#parley-widget')?.shadowRoot
      const log = root?.querySelector('.log')
      const children = [...(log?.children ?? [])]
      const at = children.findIndex((child) => child.classList.contains('ended'))
      return children[at + 1]?.textContent ?? null
    })
    expect(dividerAbove).toContain('hello again')
    expect((await desk.conversations()).length).toBe(2)
  }, E2E_TIMEOUT)

  test('HTML in messages from the visitor, an agent and the flow is shown as text: no element is made, no script runs', async () => {
    const html = '<img src=x onerror="window.__pwned=1"><b>bold</b><script>window.__pwned=2</script>'
    const flow = { ...SALES_FLOW, states: { ...SALES_FLOW.states, fallback: { say: [{ text: `Flow says ${html}` }], next: 'welcome' } } }
    const { visitor, chat } = await chatPage({ flow })
    await visitor.openChat()
    await visitor.shownText('Pick one')
    await visitor.sendText(html)
    await visitor.shownText(`Flow says ${html}`, 'bot')
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    await desk.say((await desk.onlyConversation()).id, `Agent says ${html}`, '<i>Sam</i>')
    const shown = await visitor.shownText(`Agent says ${html}`, 'agent')
    expect(shown.find((m) => m.role === 'visitor')?.text).toBe(html)
    expect(shown.find((m) => m.role === 'agent')?.author).toBe('<i>Sam</i>')
    const injected = await visitor.page.evaluate(() => {
      const root = document.querySelector('#parley-widget')!.shadowRoot!
      return {
        elements: root.querySelectorAll('.log img, .log b, .log i, .log script').length,
        pwned: (window as { __pwned?: unknown }).__pwned ?? null,
        pageImages: document.querySelectorAll('img').length,
      }
    })
    expect(injected).toEqual({ elements: 0, pwned: null, pageImages: 0 })
  }, E2E_TIMEOUT)

  test('an agent message posted through the API arrives live, with the agent\'s name, and the conversation is handed over', async () => {
    const { visitor, chat } = await chatPage()
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const conversation = await desk.onlyConversation()
    await desk.say(conversation.id, 'Hi, Sam here. How can I help?', 'Sam')
    const shown = await visitor.shownText('Hi, Sam here. How can I help?', 'agent')
    expect(shown.at(-1)).toMatchObject({ role: 'agent', author: 'Sam' })
    expect((await desk.conversation(conversation.id)).status).toBe('handoff')
    // The bot stays quiet now: the visitor's text reaches the agent only.
    await visitor.sendText('Do you ship to Norway?')
    await visitor.shownText('Do you ship to Norway?', 'visitor')
    const stored = await desk.messages(conversation.id)
    expect(stored.at(-1)).toMatchObject({ role: 'visitor', content: { kind: 'text', text: 'Do you ship to Norway?' } })
    expect(texts(await visitor.shown()).at(-1)).toBe('Do you ship to Norway?')
  }, E2E_TIMEOUT)

  test('after an agent closes the conversation, the visitor\'s next message opens a new one, greeted again', async () => {
    const { visitor, chat } = await chatPage({ web: { greeting_message: 'Welcome back!' } })
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const first = await desk.onlyConversation()
    await desk.setStatus(first.id, 'closed')
    await waitUntil(() => visitor.received('status').some((frame) => frame.status === 'closed'), 'the widget is told')
    await visitor.sendText('One more question')
    await visitor.shownWhen((messages) => messages.filter((m) => m.text === 'Welcome back!').length === 2 && messages.at(-1)?.text === 'Pick one', 'a second greeting and the flow again')
    const conversations = await desk.conversations()
    expect(conversations).toHaveLength(2)
    const second = conversations.find((conversation) => conversation.id !== first.id)!
    expect((await desk.messages(second.id)).find((m) => m.role === 'visitor')?.content).toEqual({ kind: 'text', text: 'One more question' })
    expect((await desk.messages(first.id)).filter((m) => m.role === 'visitor')).toEqual([])
  }, E2E_TIMEOUT)

  test('the typing indicator follows the agents\' typing API', async () => {
    const { visitor, chat } = await chatPage()
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const { id } = await desk.onlyConversation()
    const indicator = visitor.page.locator('#parley-widget .log .typing')
    expect(await indicator.count()).toBe(0)
    await desk.typing(id, true)
    await indicator.waitFor({ state: 'visible' })
    expect(await indicator.getAttribute('aria-label')).toBe('An agent is typing')
    await desk.typing(id, false)
    await indicator.waitFor({ state: 'detached' })
    // A message from the agent also ends it.
    await desk.typing(id, true)
    await indicator.waitFor({ state: 'visible' })
    await desk.say(id, 'Here I am')
    await visitor.shownText('Here I am', 'agent')
    expect(await indicator.count()).toBe(0)
  }, E2E_TIMEOUT)

  test('while the chat is closed, a badge counts the new messages; opening clears it', async () => {
    const { visitor, chat } = await chatPage()
    await visitor.openChat()
    await visitor.shownText('Pick one')
    await visitor.page.locator('#parley-widget .window .close').click()
    await visitor.window.waitFor({ state: 'detached' })
    const badge = visitor.page.locator('#parley-widget .launcher .badge')
    expect(await badge.count()).toBe(0)
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const { id } = await desk.onlyConversation()
    await desk.say(id, 'Are you still there?')
    await badge.waitFor({ state: 'visible' })
    await desk.say(id, 'We have a discount today.')
    await waitForText(badge, '2')
    // Its name, read out, says how many; the text and the digits are what is seen.
    expect(await visitor.page.getByRole('button', { name: 'Need Help?, unread messages: 2', exact: true }).count()).toBe(1)
    await visitor.openChat()
    expect(await badge.count()).toBe(0)
    await visitor.shownText('We have a discount today.', 'agent')
    await visitor.launcher.click()
    await visitor.window.waitFor({ state: 'detached' })
    expect(await badge.count()).toBe(0)
    expect(await visitor.page.getByRole('button', { name: 'Need Help?', exact: true }).count()).toBe(1)
  }, E2E_TIMEOUT)

  test('opening moves focus into the text box; Escape closes and gives focus back to the bubble', async () => {
    const { visitor } = await chatPage()
    await visitor.launcher.focus()
    await visitor.page.keyboard.press('Enter')
    await visitor.window.waitFor({ state: 'visible' })
    await waitUntil(async () => (await visitor.focused()).widget === 'textarea#parley-input', 'the text box has the focus', {
      seen: () => visitor.focused(),
    })
    expect(await visitor.launcher.getAttribute('aria-expanded')).toBe('true')
    // The focused text box is visibly marked (the composer's top edge takes the primary colour).
    expect(await visitor.styleOf('.composer', ['border-top-color'])).toEqual({ 'border-top-color': 'rgb(0, 102, 255)' })
    await visitor.page.keyboard.press('Escape')
    await visitor.window.waitFor({ state: 'detached' })
    await waitUntil(async () => (await visitor.focused()).widget === 'button.launcher', 'the bubble has the focus', { seen: () => visitor.focused() })
    expect(await visitor.focused()).toEqual({ page: 'div#parley-widget', widget: 'button.launcher' })
    expect(await visitor.launcher.getAttribute('aria-expanded')).toBe('false')
  }, E2E_TIMEOUT)

  test('the message list is a polite live region, so screen readers announce new messages', async () => {
    const { visitor } = await chatPage()
    await visitor.openChat()
    const log = visitor.page.locator('#parley-widget .log')
    expect(await log.getAttribute('aria-live')).toBe('polite')
    expect(await log.getAttribute('role')).toBe('log')
    expect(await visitor.window.getAttribute('role')).toBe('dialog')
    expect(await visitor.page.locator('#parley-widget label[for="parley-input"]').textContent()).toBe('Message')
    // The visitor's new message lands inside the live region.
    await visitor.shownText('Pick one')
    await visitor.sendText('hello there')
    await visitor.shownText('hello there', 'visitor')
    expect(await log.locator('.msg.visitor', { hasText: 'hello there' }).count()).toBe(1)
  }, E2E_TIMEOUT)
})

/** Waits until a locator's text is exactly `text`. */
async function waitForText(locator: import('playwright-core').Locator, text: string): Promise<void> {
  let last: string | null = null
  await waitUntil(
    async () => {
      last = await locator.textContent()
      return last === text
    },
    `the text is "${text}"`,
    { seen: () => last },
  )
}
