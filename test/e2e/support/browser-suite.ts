import { afterAll, afterEach, beforeAll } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { embedPage, type HostPages, startHostPages } from './host-pages.ts'
import { type ParleyServer, startParley } from './parley-server.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'
import { WidgetPage } from './widget-page.ts'

export interface BrowserSuite {
  browser: Browser
  parley: ParleyServer
  host: HostPages
  /** Pages opened by a test; they are closed after it. */
  opened: WidgetPage[]
  /** A new web chat (greeting "Welcome!") and a visitor on a shop page with it open and the flow's first messages shown. */
  talkingVisitor(): Promise<{ chat: WebChat; visitor: WidgetPage }>
}

/**
 * For a file of browser tests: one Chromium, one live Parley and the host pages, started
 * before the tests and stopped after them. `afterEachTest` runs before the pages close.
 */
export function browserSuite(afterEachTest?: (suite: BrowserSuite) => void): BrowserSuite {
  const suite = { opened: [] as WidgetPage[] } as BrowserSuite
  suite.talkingVisitor = async () => {
    const chat = await setUpWebChat(suite.parley.app, { web: { greeting_message: 'Welcome!' } })
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', path))
    await visitor.connected()
    await visitor.openChat()
    await visitor.shownText('Pick one')
    return { chat, visitor }
  }
  beforeAll(async () => {
    ;[suite.browser, suite.parley] = await Promise.all([launchBrowser(), startParley()])
    suite.host = startHostPages()
  }, 60_000)
  afterEach(async () => {
    afterEachTest?.(suite)
    for (const page of suite.opened.splice(0)) await page.close()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.host?.stop()
    await suite.parley?.stop()
  })
  return suite
}
