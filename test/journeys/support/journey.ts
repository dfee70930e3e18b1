import { afterAll, beforeAll } from 'bun:test'
import type { Browser, BrowserContextOptions } from 'playwright-core'
import { launchBrowser, openPage, type WatchedPage } from '../../e2e/support/browser.ts'
import { ConsolePage } from '../../e2e/support/console-page.ts'
import { DeskPage } from '../../e2e/support/desk-page.ts'
import { embedPage, type HostPages, startHostPages } from '../../e2e/support/host-pages.ts'
import { WidgetPage } from '../../e2e/support/widget-page.ts'
import { type WebhookReceiver, webhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import { type ParleyBinary, type Person, startParleyBinary } from './parley-binary.ts'

export { expectAccessible } from './accessible.ts'
export { expectInViewport, expectOutOfViewport, inViewport } from './in-viewport.ts'
export { SCREENSHOT_DIR, screenshot } from './screenshots.ts'
export { waitUntil } from '../../e2e/support/widget-page.ts'
export type { ParleyBinary, Person } from './parley-binary.ts'

/** A story is long: several actors, each step waiting on what the others see. */
export const JOURNEY_TIMEOUT = 300_000

/** The two screens the issue names: a laptop and a phone. */
export const DEVICES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
} satisfies Record<string, BrowserContextOptions>

export type Device = keyof typeof DEVICES

export interface Journey {
  browser: Browser
  /** The compiled binary, started fresh for this file: its URL, key, first-admin link, API. */
  parley: ParleyBinary
  /** The customer's website: pages that embed the widget (http://shop.test:PORT/...). */
  host: HostPages
  /** A browser context of its own (its own cookies and storage: another person) on `device`. */
  actor(device?: Device): Promise<WatchedPage>
  /** A person's desk at /app, signed in. */
  desk(person: Person, device?: Device): Promise<DeskPage>
  /** A person's console at `path` (default /app/console), signed in there. */
  console(person: Person, device?: Device, path?: string): Promise<ConsolePage>
  /** A new visitor on a shop page at `path` that embeds the widget with `widgetKey` (the chat still closed). */
  visitor(widgetKey: string, device?: Device, path?: string): Promise<WidgetPage>
  /** A new visitor on a page of the test's own making (`host.page(...)` first), at its full URL. */
  visitorAt(url: string, device?: Device): Promise<WidgetPage>
  /** A real HTTP receiver on 127.0.0.1 (a rest-api integration's webhook URL), stopped at the end. */
  receiver(): WebhookReceiver
}

/**
 * For a file of journeys: one Chromium, the compiled `dist/parley` on a fresh data folder and
 * the shop's pages, started before the stories and stopped after them. Every actor gets a
 * browser context of its own, so an admin, two agents and visitors on a laptop and a phone
 * act side by side in one story. Contexts live until the file ends (a story is one test).
 */
export function journey(env: Record<string, string> = {}): Journey {
  const receivers: WebhookReceiver[] = []
  const suite = {} as Journey
  beforeAll(async () => {
    ;[suite.browser, suite.parley] = await Promise.all([launchBrowser(), startParleyBinary(env)])
    suite.host = startHostPages()
  }, 60_000)
  afterAll(async () => {
    await suite.browser?.close()
    for (const receiver of receivers) receiver.stop()
    await suite.host?.stop()
    await suite.parley?.stop()
  })
  suite.actor = async (device = 'desktop') => await openPage(suite.browser, DEVICES[device])
  suite.desk = async (person, device = 'desktop') => {
    const desk = await DeskPage.open(suite.browser, suite.parley.url, DEVICES[device])
    await desk.signIn(person)
    return desk
  }
  suite.console = async (person, device = 'desktop', path) => {
    const admin = await ConsolePage.open(suite.browser, suite.parley.url, DEVICES[device])
    await admin.signIn(person, path)
    return admin
  }
  suite.visitor = async (widgetKey, device = 'desktop', path = `/shop-${widgetKey.slice(-8)}`) => {
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey }))
    const visitor = await WidgetPage.open(suite.browser, DEVICES[device])
    await visitor.goto(suite.host.url('shop.test', path))
    return visitor
  }
  suite.visitorAt = async (url, device = 'desktop') => {
    const visitor = await WidgetPage.open(suite.browser, DEVICES[device])
    await visitor.goto(url)
    return visitor
  }
  suite.receiver = () => {
    const receiver = webhookReceiver()
    receivers.push(receiver)
    return receiver
  }
  return suite
}
