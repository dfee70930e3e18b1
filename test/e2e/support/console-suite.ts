import { afterAll, afterEach, beforeAll } from 'bun:test'
import type { Browser, BrowserContextOptions } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { ConsolePage } from './console-page.ts'
import { type DeskBed, deskBed, type Person } from './desk-bed.ts'
import { type HostPages, startHostPages } from './host-pages.ts'

export interface ConsoleSuite {
  browser: Browser
  bed: DeskBed
  host: HostPages
  /** An admin, activated. */
  ada: Person
  /** A console browser signed in as `person` at `path` (closed after the test). */
  consoleOf(person: Person, path?: string, options?: BrowserContextOptions): Promise<ConsolePage>
  /** Pages opened by a test; closed after it. */
  opened: { close(): Promise<void> }[]
}

/** For a file of console tests (deskSuite builds on it): one Chromium, the compiled binary (started with `env`), the host pages and an admin. */
export function consoleSuite(env: Record<string, string> = {}): ConsoleSuite {
  const suite = { opened: [] } as unknown as ConsoleSuite
  beforeAll(async () => {
    ;[suite.browser, suite.bed] = await Promise.all([launchBrowser(), deskBed(env)])
    suite.host = startHostPages()
    suite.ada = await suite.bed.person('Ada', 'admin')
  }, 60_000)
  afterEach(async () => {
    for (const page of suite.opened.splice(0)) await page.close()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.host?.stop()
    await suite.bed?.close()
  })
  suite.consoleOf = async (person, path, options = {}) => {
    const page = await ConsolePage.open(suite.browser, suite.bed.url, options)
    suite.opened.push(page)
    await page.enter(person, path)
    return page
  }
  return suite
}
