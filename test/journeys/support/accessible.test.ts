import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../../e2e/support/browser.ts'
import { expectAccessible } from './accessible.ts'
import { expectVisibleFocus, tabTo } from './keyboard.ts'

/** The journeys' accessibility checks must fail where a person would be let down, and say where. */
describe('expectAccessible and the focus checks (Chromium)', () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 400, height: 300 } })
  })
  afterAll(async () => await browser?.close())

  test('a clean page passes; a list item outside a list, an unnamed button in a shadow root and faint text fail, each named', async () => {
    await page.setContent('<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><h1>Fine</h1><button>Send</button></main></body></html>')
    await expectAccessible(page, 'a clean page')
    await page.setContent(`<!doctype html><html lang="en"><head><title>Broken</title></head><body><main><li>stray</li><p style="color:#aaa">faint</p><div id="host"></div></main></body></html>`)
    await page.evaluate(() => (document.getElementById('host')!.attachShadow({ mode: 'open' }).innerHTML = '<button class="icon"></button>'))
    const failure = await expectAccessible(page, 'a broken page').then(() => null, (error: Error) => error.message)
    expect(failure).toContain('a broken page: 3 accessibility rule(s) violated')
    expect(failure).toContain('- listitem (serious)')
    expect(failure).toContain('- button-name (critical)')
    expect(failure).toContain('#host >>> button')
    expect(failure).toContain('- color-contrast (serious)')
  })

  test('a focus without outline or shadow is reported, one with an outline or a marked box around it passes', async () => {
    await page.setContent(`<style>#plain:focus { outline: none } .box:focus-within { box-shadow: 0 0 0 2px blue }</style>
      <button id="ringed">ringed</button><button id="plain">plain</button><div class="box"><input id="inside" style="outline:none"></div>`)
    await tabTo(page, '#ringed', 'the ringed button')
    await expect(tabTo(page, '#plain', 'the plain button', { most: 1 })).rejects.toThrow('the focus on button#plain "plain" is not visible')
    await page.locator('#inside').focus()
    expect(await expectVisibleFocus(page, 'the field in a marked box')).toBe('input#inside')
  })
})
