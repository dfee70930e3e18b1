import { describe, expect, test } from 'bun:test'
import { setUpWebChat } from '../support/web-chat.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { texts, WidgetPage, waitUntil } from './support/widget-page.ts'

describe('allowed_paths in Chromium: shown and connected only on matching pages', () => {
  const suite = browserSuite()
  const { opened } = suite

  /**
   * A chatbot shown on /{id}/shop/* and /{id}/contact only (its own path prefix keeps tests
   * apart), and a visitor on `path` of a site that embeds it on every page.
   */
  async function siteWithPaths(path: string) {
    const chat = await setUpWebChat(suite.parley.app)
    const prefix = `/${chat.chatbotId}`
    await suite.parley.app.call('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/web`, {
      body: { widget_config: { allowed_paths: [`${prefix}/shop/*`, `${prefix}/contact`] } },
    })
    suite.host.page(`${prefix}${path}`, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', `${prefix}${path}`))
    /** Client-side navigation as a single-page app does it. */
    const navigate = async (how: 'pushState' | 'replaceState', to: string) =>
      await visitor.page.evaluate(({ how, to }) => history[how]({}, '', to), { how, to: `${prefix}${to}` })
    return { chat, visitor, prefix, navigate }
  }

  /** What the page's own code can see: the widget's host element shown or not, and the browser's open widget sockets. */
  async function state(visitor: WidgetPage) {
    const display = await visitor.page.evaluate(() => {
      const element = document.querySelector('#parley-widget')
      return element ? getComputedStyle(element).display : 'absent'
    })
    return { displayNone: display === 'none', sockets: await visitor.openSockets() }
  }
  const hidden = { displayNone: true, sockets: 0 }
  const shown = { displayNone: false, sockets: 1 }

  async function becomes(visitor: WidgetPage, expected: { displayNone: boolean; sockets: number }, what: string) {
    await waitUntil(async () => JSON.stringify(await state(visitor)) === JSON.stringify(expected), what, { seen: () => state(visitor) })
  }

  test('pushState away hides and disconnects; replaceState back shows, reconnects and resumes; back and forward follow', async () => {
    const { chat, visitor, navigate } = await siteWithPaths('/shop/shoes')
    await visitor.connected()
    expect(await state(visitor)).toEqual(shown)
    await visitor.openChat()
    const before = await visitor.shownText('Pick one')

    await navigate('pushState', '/about')
    await becomes(visitor, hidden, 'hidden and disconnected on /about')

    // Meanwhile an agent writes: nothing can arrive while disconnected...
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const { id } = await desk.onlyConversation()
    await desk.say(id, 'Still looking for shoes?', 'Sam')

    // ...and coming back to a matching page resumes, fetching only what was missed.
    await navigate('replaceState', '/contact')
    await becomes(visitor, shown, 'shown and connected on /contact')
    await visitor.connected(2)
    const lastSeen = visitor.received('message').filter((frame) => frame.message.role === 'bot').at(-1)?.message.id
    expect(lastSeen).toBeDefined()
    expect(visitor.sent('hello')[1]?.after).toBe(lastSeen)
    expect(visitor.received('welcome')[1]?.messages.map((message) => message.content)).toEqual([{ kind: 'text', text: 'Still looking for shoes?' }])
    const resumed = await visitor.shownText('Still looking for shoes?', 'agent')
    expect(texts(resumed)).toEqual([...texts(before), 'Still looking for shoes?'])
    // The chat is still open where the visitor left it.
    expect(await visitor.window.isVisible()).toBe(true)

    await navigate('pushState', '/blog/post')
    await becomes(visitor, hidden, 'hidden and disconnected on /blog/post')
    await visitor.page.goBack()
    expect(new URL(visitor.page.url()).pathname.endsWith('/contact')).toBe(true)
    await becomes(visitor, shown, 'shown and reconnected after the back button')
    await visitor.connected(3)
    await visitor.page.goForward()
    await becomes(visitor, hidden, 'hidden again after the forward button')
    expect(texts(await visitor.shown())).toEqual([...texts(before), 'Still looking for shoes?'])
  }, E2E_TIMEOUT)

  test('a first page that does not match never connects; navigating to a matching one shows and connects', async () => {
    const { visitor, navigate } = await siteWithPaths('/about')
    await visitor.page.waitForFunction(() => document.querySelector('#parley-widget') !== null)
    expect(await state(visitor)).toEqual(hidden)
    // Drawn all the same (hidden), so showing it later needs no new request.
    expect(await visitor.launcher.count()).toBe(1)
    expect(visitor.sockets).toEqual([])
    // Patterns: /shop/* covers the bare /shop too; query strings do not matter.
    await navigate('pushState', '/shop?ref=ad')
    await becomes(visitor, shown, 'shown and connected on /shop')
    await visitor.connected()
    await navigate('pushState', '/shopping')
    await becomes(visitor, hidden, 'hidden on /shopping (not under /shop/)')
  }, E2E_TIMEOUT)
})
