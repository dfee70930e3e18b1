import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { openPage, type WatchedPage } from './browser.ts'
import type { Person } from './desk-bed.ts'
import { signInByApi } from './sign-in-by-api.ts'

/** An admin's browser on the console at /app/console, driven by what is shown. */
export class ConsolePage {
  private constructor(
    readonly watched: WatchedPage,
    readonly baseUrl: string,
  ) {}

  static async open(browser: Browser, baseUrl: string, options: BrowserContextOptions = {}): Promise<ConsolePage> {
    return new ConsolePage(await openPage(browser, options), baseUrl)
  }

  get page(): Page {
    return this.watched.page
  }

  async goto(path = '/app/console'): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`)
  }

  /** Signs in from the console's own address: sign-in brings the person back to it. */
  async signIn(person: Person, path = '/app/console'): Promise<void> {
    await this.goto(path)
    await this.page.locator('input[name=email]').fill(person.email)
    await this.page.locator('input[name=password]').fill(person.password)
    await this.page.locator('button[type=submit]').click()
    await this.page.locator('.console').waitFor({ state: 'visible' })
    // What the browser said while signed out (the 401 of "who am I?") is not the console's.
    this.watched.console.length = 0
  }

  /** Signed in without the form (see signInByApi), then the console at `path`. */
  async enter(person: Person, path = '/app/console'): Promise<void> {
    await signInByApi(this.watched, this.baseUrl, person)
    await this.goto(path)
    await this.page.locator('.console').waitFor({ state: 'visible' })
  }

  /** Page errors and failed loads the browser reported (a lazily loaded chunk that 404s shows here). */
  errors(): string[] {
    return this.watched.console.filter((line) => line.startsWith('pageerror') || line.startsWith('error'))
  }

  async close(): Promise<void> {
    await this.watched.context.close()
  }
}
