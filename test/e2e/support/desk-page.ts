import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core'
import { openPage, type WatchedPage } from './browser.ts'
import type { Person } from './desk-bed.ts'
import { signInByApi } from './sign-in-by-api.ts'
import { waitUntil } from './widget-page.ts'

export interface ShownRow {
  id: string
  name: string
  preview: string
  unread: boolean
  waiting: string | null
}

/** A person's browser on the desk at /app, read and driven as they would: by what is shown. */
export class DeskPage {
  /** While true, what the server sends on the desk socket is held back (see holdSocket). */
  private holding = false
  private held: (() => void)[] = []

  private constructor(
    readonly watched: WatchedPage,
    readonly baseUrl: string,
  ) {}

  /** `relaySocket`: the desk socket goes through a relay in the test, so it can hold back what the server says. */
  static async open(browser: Browser, baseUrl: string, options: BrowserContextOptions & { relaySocket?: boolean } = {}): Promise<DeskPage> {
    const { relaySocket = false, ...contextOptions } = options
    const desk = new DeskPage(await openPage(browser, contextOptions), baseUrl)
    if (!relaySocket) return desk
    await desk.page.routeWebSocket(/\/app\/socket/, (socket) => {
      const server = socket.connectToServer()
      server.onMessage((frame) => {
        if (desk.holding) desk.held.push(() => socket.send(frame))
        else socket.send(frame)
      })
    })
    return desk
  }

  /** From now on the desk hears nothing from its socket (as a slow network would do) until release(). */
  holdSocket(): void {
    this.holding = true
  }

  releaseSocket(): void {
    this.holding = false
    for (const send of this.held.splice(0)) send()
  }

  get page(): Page {
    return this.watched.page
  }

  get composer(): Locator {
    return this.page.locator('#composer')
  }

  async goto(path = '/app'): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`)
  }

  async signIn(person: Person, path = '/app'): Promise<void> {
    await this.goto(path)
    await this.page.locator('input[name=email]').fill(person.email)
    await this.page.locator('input[name=password]').fill(person.password)
    await this.page.locator('button[type=submit]').click()
    await this.page.locator('.desk').waitFor({ state: 'visible' })
  }

  /** Signed in without the form (see signInByApi), then the desk at `path`. */
  async enter(person: Person, path = '/app'): Promise<void> {
    await signInByApi(this.watched, this.baseUrl, person)
    await this.goto(path)
    await this.page.locator('.desk').waitFor({ state: 'visible' })
  }

  async rows(): Promise<ShownRow[]> {
    return await this.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.list .row')].map((row) => ({
        id: row.dataset.conversation ?? '',
        name: row.querySelector('.row-name')?.textContent ?? '',
        preview: row.querySelector('.row-preview')?.textContent ?? '',
        unread: row.classList.contains('unread'),
        waiting: row.querySelector('.wait')?.textContent ?? null,
      })),
    )
  }

  async rowsWhen(check: (rows: ShownRow[]) => boolean, what: string, ms?: number): Promise<ShownRow[]> {
    let last: ShownRow[] = []
    await waitUntil(
      async () => {
        last = await this.rows()
        return check(last)
      },
      what,
      { ms, seen: () => last },
    )
    return last
  }

  /** Switches to a view and waits until the rows shown are that view's. */
  async view(id: string): Promise<void> {
    await this.page.locator(`.view[data-view="${id}"]`).click()
    await this.page.locator(`.list[data-view="${id}"][aria-busy="false"]`).waitFor()
  }

  async openConversation(id: string): Promise<void> {
    await this.page.locator(`.row[data-conversation="${id}"]`).click()
    await this.page.locator('.conversation .messages').waitFor({ state: 'visible' })
  }

  /** The open conversation's messages, as [role, author, text] from the screen. */
  async messages(): Promise<{ id: string; role: string; author: string; text: string; html: string }[]> {
    return await this.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.conversation .messages .message')].map((message) => ({
        id: message.dataset.message ?? '',
        role: ['visitor', 'bot', 'agent', 'system', 'note', 'event'].find((role) => message.classList.contains(role)) ?? '',
        author: message.querySelector('.author')?.textContent ?? '',
        text: (message.querySelector('.bubble') ?? message).textContent?.trim() ?? '',
        html: (message.querySelector('.bubble') ?? message).innerHTML,
      })),
    )
  }

  async messagesWhen(check: (messages: Awaited<ReturnType<DeskPage['messages']>>) => boolean, what: string, ms?: number) {
    let last: Awaited<ReturnType<DeskPage['messages']>> = []
    await waitUntil(
      async () => {
        last = await this.messages()
        return check(last)
      },
      what,
      { ms, seen: () => last.map((message) => `${message.role}: ${message.text}`) },
    )
    return last
  }

  async reply(text: string): Promise<void> {
    await this.composer.fill(text)
    await this.composer.press('Enter')
  }

  pageErrors(): string[] {
    return this.watched.console.filter((line) => line.startsWith('pageerror:'))
  }

  async close(): Promise<void> {
    await this.watched.context.close()
  }
}
