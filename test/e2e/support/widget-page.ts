import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core'
import type { ClientMessage, ServerMessage } from '../../../server/protocol/widget-protocol.ts'
import { openPage } from './browser.ts'

/** A widget socket the page opened, as the browser saw it. */
export interface WatchedSocket {
  url: string
  closed: boolean
  received: ServerMessage[]
  sent: ClientMessage[]
}

/** One bubble of the message list, read from the DOM inside the widget's shadow root. */
export interface ShownMessage {
  role: 'visitor' | 'bot' | 'agent' | 'system'
  /** The text of the bubble's paragraphs (what the visitor reads), without the speaker. */
  text: string
  author: string | null
  choices: string[]
  pending: boolean
}

/**
 * Polls `check` until it holds; never a fixed sleep. On timeout the error names what was
 * awaited and, when given, what was seen last.
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  options: { ms?: number; seen?: () => unknown } = {},
): Promise<void> {
  const deadline = Date.now() + (options.ms ?? 10_000)
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) {
      const seen = options.seen ? `; last seen: ${JSON.stringify(await options.seen())}` : ''
      throw new Error(`timed out waiting until ${what}${seen}`)
    }
    await Bun.sleep(25)
  }
}

/**
 * A browser page (in its own context: a new visitor with empty storage) whose console and
 * widget sockets are recorded, with the widget's parts as locators. Playwright's CSS
 * locators pierce the open shadow root, so `#parley-widget .launcher` finds the bubble.
 */
export class WidgetPage {
  readonly sockets: WatchedSocket[] = []
  readonly host: Locator
  readonly launcher: Locator
  readonly window: Locator
  readonly input: Locator

  private constructor(
    readonly page: Page,
    readonly context: BrowserContext,
    readonly console: string[],
  ) {
    this.host = page.locator('#parley-widget')
    this.launcher = page.locator('#parley-widget .launcher')
    this.window = page.locator('#parley-widget .window')
    this.input = page.locator('#parley-widget textarea')
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/widget/v1/socket')) return
      const watched: WatchedSocket = { url: socket.url(), closed: false, received: [], sent: [] }
      this.sockets.push(watched)
      socket.on('framereceived', ({ payload }) => watched.received.push(JSON.parse(String(payload)) as ServerMessage))
      socket.on('framesent', ({ payload }) => watched.sent.push(JSON.parse(String(payload)) as ClientMessage))
      socket.on('close', () => {
        watched.closed = true
      })
    })
  }

  static async open(browser: Browser, options: BrowserContextOptions = {}): Promise<WidgetPage> {
    const { page, context, console } = await openPage(browser, options)
    await context.addInitScript(countSockets)
    return new WidgetPage(page, context, console)
  }

  /** Another tab of the same browser context (same storage: the same visitor). */
  async newTab(): Promise<WidgetPage> {
    const page = await this.context.newPage()
    const tab = new WidgetPage(page, this.context, [])
    page.on('console', (message) => tab.console.push(`${message.type()}: ${message.text()}`))
    page.on('pageerror', (error) => tab.console.push(`pageerror: ${error.message}`))
    return tab
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url)
  }

  /**
   * Sockets of the current document that are connecting or open. (The browser's own count:
   * a reload drops the old document's sockets without a close event reaching Playwright.)
   */
  async openSockets(): Promise<number> {
    return await this.page.evaluate(() => {
      const sockets = (window as { __sockets?: WebSocket[] }).__sockets ?? []
      return sockets.filter((socket) => socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN).length
    })
  }

  received<T extends ServerMessage['type']>(type: T): Extract<ServerMessage, { type: T }>[] {
    return this.sockets.flatMap((socket) => socket.received.filter((message) => message.type === type)) as Extract<ServerMessage, { type: T }>[]
  }

  sent<T extends ClientMessage['type']>(type: T): Extract<ClientMessage, { type: T }>[] {
    return this.sockets.flatMap((socket) => socket.sent.filter((message) => message.type === type)) as Extract<ClientMessage, { type: T }>[]
  }

  /** Console warnings of the widget ("ParleyWidget: ..."), without the level prefix. */
  warnings(): string[] {
    return this.console.filter((line) => line.startsWith('warning: ParleyWidget:')).map((line) => line.slice('warning: '.length))
  }

  pageErrors(): string[] {
    return this.console.filter((line) => line.startsWith('pageerror:'))
  }

  /** Resolves once `count` welcomes have arrived in all (so `count` connections were made). */
  async connected(count = 1): Promise<void> {
    await waitUntil(async () => this.received('welcome').length >= count && (await this.openSockets()) === 1, `${count} welcome(s) arrived, one socket open`, {
      seen: async () => ({ welcomes: this.received('welcome').length, open: await this.openSockets() }),
    })
  }

  /** Clicks the bubble and waits for the chat window. */
  async openChat(): Promise<void> {
    await this.launcher.click()
    await this.window.waitFor({ state: 'visible' })
  }

  async sendText(text: string): Promise<void> {
    await this.input.fill(text)
    await this.input.press('Enter')
  }

  /** The message bubbles shown, oldest first (the typing indicator is not one). */
  async shown(): Promise<ShownMessage[]> {
    return await this.page.evaluate(() => {
      const root = document.querySelector('#parley-widget')?.shadowRoot
      if (!root) return []
      const roles = ['visitor', 'bot', 'agent', 'system'] as const
      return [...root.querySelectorAll('.log .msg:not(.typing)')].map((bubble) => ({
        role: roles.find((role) => bubble.classList.contains(role)) ?? 'system',
        text: [...bubble.querySelectorAll('.text')].map((p) => p.textContent ?? '').join(' '),
        author: bubble.querySelector('.author')?.textContent ?? null,
        choices: [...bubble.querySelectorAll('button.choice')].map((button) => button.textContent ?? ''),
        pending: bubble.classList.contains('pending'),
      }))
    })
  }

  /** Waits until the shown bubbles satisfy `check`, and returns them. */
  async shownWhen(check: (messages: ShownMessage[]) => boolean, what: string, ms?: number): Promise<ShownMessage[]> {
    let last: ShownMessage[] = []
    await waitUntil(
      async () => {
        last = await this.shown()
        return check(last)
      },
      what,
      { ms, seen: () => last.map((message) => `${message.role}${message.pending ? '(pending)' : ''}: ${message.text}`) },
    )
    return last
  }

  /** Waits until a bubble with exactly this text is shown (and settled, not pending). */
  async shownText(text: string, role?: ShownMessage['role']): Promise<ShownMessage[]> {
    return await this.shownWhen(
      (messages) => messages.some((message) => message.text === text && !message.pending && (!role || message.role === role)),
      `"${text}" is shown${role ? ` as a ${role} message` : ''}`,
    )
  }

  /** Computed style properties of the first element matching `selector` inside the shadow root (null if none). */
  async styleOf(selector: string, properties: string[]): Promise<Record<string, string> | null> {
    return await this.page.evaluate(
      ({ selector, properties }) => {
        const element = document.querySelector('#parley-widget')?.shadowRoot?.querySelector(selector)
        if (!element) return null
        const style = getComputedStyle(element)
        return Object.fromEntries(properties.map((property) => [property, style.getPropertyValue(property)]))
      },
      { selector, properties },
    )
  }

  /** The focused element: where the page's focus is, and inside the widget, which of its elements. */
  async focused(): Promise<{ page: string; widget: string | null }> {
    return await this.page.evaluate(() => {
      const describe = (element: Element | null) =>
        element ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList].map((name) => `.${name}`).join('')}` : 'none'
      const active = document.activeElement
      const inner = active?.shadowRoot ? active.shadowRoot.activeElement : null
      return { page: describe(active), widget: active?.shadowRoot ? describe(inner) : null }
    })
  }

  async close(): Promise<void> {
    await this.context.close()
  }
}

/** Runs in every document before its scripts: keeps each WebSocket it creates in window.__sockets. */
function countSockets() {
  const Native = window.WebSocket
  const sockets: WebSocket[] = []
  Object.defineProperty(window, '__sockets', { value: sockets })
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols)
      sockets.push(this)
    }
  }
}

/** The texts of shown messages, for compact assertions. */
export const texts = (messages: ShownMessage[]) => messages.map((message) => message.text)
