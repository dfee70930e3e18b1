import { afterAll, afterEach, beforeAll } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { type HostPages, startHostPages } from './host-pages.ts'
import { type ParleyServer, startParley } from './parley-server.ts'
import type { WidgetPage } from './widget-page.ts'

export interface BrowserSuite {
  browser: Browser
  parley: ParleyServer
  host: HostPages
  /** Pages opened by a test; they are closed after it. */
  opened: WidgetPage[]
}

/**
 * For a file of browser tests: one Chromium, one live Parley and the host pages, started
 * before the tests and stopped after them. `afterEachTest` runs before the pages close.
 */
export function browserSuite(afterEachTest?: (suite: BrowserSuite) => void): BrowserSuite {
  const suite = { opened: [] as WidgetPage[] } as BrowserSuite
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
