import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { E2E_TIMEOUT, launchBrowser } from './support/browser.ts'
import { startImageHost } from './support/image-host.ts'
import { type ParleyServer, startParley } from './support/parley-server.ts'
import { waitUntil, WidgetPage } from './support/widget-page.ts'

/** Runs in every document before its scripts: keeps what the Content-Security-Policy blocked. */
function recordViolations() {
  const violations: string[] = []
  Object.defineProperty(window, '__violations', { value: violations })
  document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'}`), true)
}

async function open(browser: Browser, options: Parameters<typeof WidgetPage.open>[1] = {}): Promise<WidgetPage & { violations: () => Promise<string[]>; refusals: () => string[] }> {
  const page = await WidgetPage.open(browser, options)
  await page.context.addInitScript(recordViolations)
  return Object.assign(page, {
    violations: () => page.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
    // Chromium also says so in the console, for violations an event does not reach (inside a shadow root).
    refusals: () => page.console.filter((line) => /Content Security Policy|Refused to/i.test(line)),
  })
}

describe('the pages under their Content-Security-Policy in Chromium', () => {
  let browser: Browser
  let parley: ParleyServer
  const pages: WidgetPage[] = []

  beforeAll(async () => {
    ;[browser, parley] = await Promise.all([launchBrowser(), startParley()])
  }, 60_000)
  afterAll(async () => {
    for (const page of pages) await page.close()
    await browser?.close()
    await parley?.stop()
  })

  test('the API reference renders every operation with nothing blocked', async () => {
    const visitor = await open(browser)
    pages.push(visitor)
    const response = await visitor.page.goto(`${parley.url}/api/dev/v1/reference`)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'sha256-")
    await waitUntil(async () => (await visitor.page.locator('section.op').count()) > 20, 'the operations are laid out')
    expect(await visitor.page.locator('nav a').count()).toBeGreaterThan(20)
    // The stylesheet applied: the layout is the two-column grid it sets.
    expect(await visitor.page.evaluate(() => getComputedStyle(document.body).display)).toBe('grid')
    expect(await visitor.violations()).toEqual([])
    expect(visitor.refusals()).toEqual([])
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('the demo page runs the widget, styled and connected, with nothing blocked', async () => {
    const workspaceId = (await parley.app.services.workspaces.authenticate(parley.app.key)) as string
    await parley.app.services.demo.create(workspaceId)
    const visitor = await open(browser)
    pages.push(visitor)
    const response = await visitor.page.goto(`${parley.url}/`)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    await visitor.connected()
    await visitor.openChat()
    await visitor.shownText('Hi! I am the demo bot of this Parley server.', 'bot')
    // The widget's stylesheet (written into its shadow root) applied: the bubble is fixed in a corner.
    expect(await visitor.styleOf('.launcher', ['position'])).toEqual({ position: 'fixed' })
    // The page's own stylesheet applied.
    expect(await visitor.page.evaluate(() => getComputedStyle(document.querySelector('main') as Element).maxWidth)).toBe('720px')
    expect(await visitor.violations()).toEqual([])
    expect(visitor.refusals()).toEqual([])
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('on the demo page an https bot_avatar_url loads under the page policy (img-src https:)', async () => {
    const images = await startImageHost()
    try {
      const workspaceId = (await parley.app.services.workspaces.authenticate(parley.app.key)) as string
      const demo = await parley.app.services.demo.create(workspaceId)
      const avatar = images.url('/avatar.png')
      const patched = await parley.app.call('PATCH', `/api/dev/v1/chatbots/${demo.chatbotId}/integrations/web`, { body: { widget_config: { bot_avatar_url: avatar } } })
      expect(patched.status).toBe(200)
      // ignoreHTTPSErrors: the image host's test certificate is trusted by no browser.
      const visitor = await open(browser, { ignoreHTTPSErrors: true })
      pages.push(visitor)
      const response = await visitor.page.goto(`${parley.url}/`)
      expect(response?.headers()['content-security-policy']).toContain('img-src \'self\' data: https:')
      await visitor.connected()
      await visitor.openChat()
      const img = visitor.page.locator('#parley-widget .header .avatar img')
      await waitUntil(async () => (await img.count()) === 1 && (await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)), 'the avatar loaded', {
        seen: async () => ({ requested: images.requested, violations: await visitor.violations(), refusals: visitor.refusals() }),
      })
      expect(await img.getAttribute('src')).toBe(avatar)
      expect(await visitor.violations()).toEqual([])
      expect(visitor.refusals()).toEqual([])
    } finally {
      await images.stop()
    }
  }, E2E_TIMEOUT)
})
