import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type ConsoleMessage, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from '../../../scripts/chromium.ts'

/** Per browser test: generous, because every wait inside polls a condition with its own limit. */
export const E2E_TIMEOUT = 60_000

/**
 * How long Chromium outlives the last file that used it, so that the next file of browser tests
 * takes it over instead of starting another (under `bun test`; a script closes it at once).
 */
const IDLE_CLOSE_MS = process.env.NODE_ENV === 'test' ? 60_000 : 0

let running: Promise<Browser> | null = null
let users = 0
let idleClose: ReturnType<typeof setTimeout> | undefined

/**
 * Headless Debian Chromium. `*.test` names resolve to 127.0.0.1, so host pages can be served
 * as http://shop.test:PORT/ or http://evil.test:PORT/ and the server sees those origins.
 *
 * One Chromium process serves every caller in this process (a launch and its first renderer
 * took about a second, paid by every file of browser tests): each caller gets a handle on it
 * whose `newContext` and `newPage` open contexts of its own (every context has its own
 * storage, cookies and cache, a new visitor) and whose `close` closes those contexts; the
 * process itself closes once nobody has used it for IDLE_CLOSE_MS, and a crashed one is
 * launched again.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/prepare-tests.sh as root (it installs Debian's chromium)`)
  users++
  clearTimeout(idleClose)
  try {
    return handleOn(await sharedChromium())
  } catch (error) {
    release()
    throw error
  }
}

async function sharedChromium(): Promise<Browser> {
  const current = running && (await running.catch(() => null))
  if (current?.isConnected()) return current
  running = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
  return await running
}

function release(): void {
  if (--users > 0) return
  const closing = running
  idleClose = setTimeout(() => {
    if (users > 0 || running !== closing) return
    running = null
    void closing?.then((browser) => browser.close()).catch(() => {})
  }, IDLE_CLOSE_MS)
  idleClose.unref?.()
}

/** The caller's view of the shared Chromium: its own contexts, closed by its `close`. */
function handleOn(browser: Browser): Browser {
  const contexts = new Set<BrowserContext>()
  let closed = false
  const track = (context: BrowserContext) => {
    contexts.add(context)
    context.once('close', () => contexts.delete(context))
    return context
  }
  const own: Partial<Browser> = {
    newContext: async (options?: BrowserContextOptions) => track(await browser.newContext(options)),
    newPage: async (options?: BrowserContextOptions) => {
      const page = await browser.newPage(options)
      track(page.context())
      return page
    },
    contexts: () => [...contexts],
    close: async () => {
      if (closed) return
      closed = true
      await Promise.all([...contexts].map((context) => context.close().catch(() => {})))
      release()
    },
  }
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof Browser]
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
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
