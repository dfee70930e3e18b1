import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type ConsoleMessage, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from '../../../scripts/chromium.ts'

/** Per browser test: generous, because every wait inside polls a condition with its own limit. */
export const E2E_TIMEOUT = 60_000

/**
 * Headless Debian Chromium. `*.test` names resolve to 127.0.0.1, so host pages can be served
 * as http://shop.test:PORT/ or http://evil.test:PORT/ and the server sees those origins.
 * playwright-core gives every launch a fresh --user-data-dir of its own (a temporary profile
 * removed on close), and every context its own storage.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/prepare-tests.sh as root (it installs Debian's chromium)`)
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  })
}

export interface WatchedPage {
  context: BrowserContext
  page: Page
  /** Console messages and uncaught page errors, in order, as "type: text". */
  console: string[]
}

/** A page in a fresh context (its own storage: a new visitor), recording its console. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const console: string[] = []
  page.on('console', (message: ConsoleMessage) => console.push(`${message.type()}: ${message.text()}`))
  page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`))
  return { context, page, console }
}
