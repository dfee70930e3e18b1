import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../../e2e/support/browser.ts'
import { inViewport } from './in-viewport.ts'

/** The journeys' "seen on screen" check must tell a scrolled-away or covered element from one in view. */
describe('inViewport (Chromium)', () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 400, height: 300 } })
    await page.setContent(`
      <div id="log" style="height:100px;overflow:auto"><p id="top" style="height:40px;margin:0">top</p><div style="height:400px"></div><p id="bottom" style="height:40px;margin:0">bottom</p></div>
      <p id="covered" style="margin:0">covered</p><div style="position:absolute;top:100px;left:0;width:400px;height:60px;background:#fff"></div>
      <div style="height:1000px"></div><p id="below">below the window</p>
      <div id="host"></div>`)
    await page.evaluate(() => {
      const root = document.getElementById('host')!.attachShadow({ mode: 'open' })
      root.innerHTML = '<div style="position:fixed;top:200px;height:50px;overflow:hidden"><p style="margin-top:80px" id="clipped">inside a shadow root</p></div>'
    })
  })
  afterAll(async () => await browser?.close())

  test('an element in view passes; scrolled out of its box, below the window, covered or clipped in a shadow root does not, though Playwright calls each "visible"', async () => {
    expect(await inViewport(page.locator('#top'))).toEqual({ ok: true, why: '' })
    for (const id of ['bottom', 'below', 'covered', 'clipped']) {
      expect(await page.locator(`#${id}`).isVisible()).toBe(true)
      const check = await inViewport(page.locator(`#${id}`))
      expect(check.ok).toBe(false)
    }
    expect((await inViewport(page.locator('#bottom'))).why).toContain('div#log')
    expect((await inViewport(page.locator('#covered'))).why).toContain('covered by div')
    expect((await inViewport(page.locator('#nothing'))).why).toBe('not in the DOM')
    await page.locator('#log').evaluate((log) => (log.scrollTop = log.scrollHeight))
    expect((await inViewport(page.locator('#bottom'))).ok).toBe(true)
    expect((await inViewport(page.locator('#top'))).ok).toBe(false)
  })
})
