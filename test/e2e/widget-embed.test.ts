import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { QUEUE_STUB } from '../../widget/src/queue-stub.ts'
import { launchBrowser, openPage } from './support/browser.ts'
import { embedPage, type HostPages, startHostPages } from './support/host-pages.ts'
import { type ParleyServer, startParley } from './support/parley-server.ts'

/** Well-formed, but no web integration has it. */
const UNKNOWN_KEY = 'wk_0000000000000000000000'

describe('the widget script in Chromium, without a web integration', () => {
  let browser: Browser
  let parley: ParleyServer
  let host: HostPages

  beforeAll(async () => {
    ;[browser, parley] = await Promise.all([launchBrowser(), startParley()])
    host = startHostPages()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await host?.stop()
    await parley?.stop()
  })

  const warnings = (log: string[]) => log.filter((line) => line.startsWith('warning: ParleyWidget:'))

  test('loads from /widget.js, defines window.ParleyWidget, and with an unknown key draws nothing but warns', async () => {
    host.page('/unknown', embedPage({ serverUrl: parley.url, widgetKey: UNKNOWN_KEY }))
    const { page, console: log, context } = await openPage(browser)
    await page.goto(host.url('shop.test', '/unknown'))
    await page.waitForFunction(() => (window as any).ParleyWidget?.loaded === true)
    expect(await page.evaluate(() => [typeof (window as any).ParleyWidget.identify, typeof (window as any).ParleyWidget.setContactDetails])).toEqual(['function', 'function'])
    for (let i = 0; i < 100 && warnings(log).length === 0; i++) await page.waitForTimeout(50)
    expect(warnings(log)[0]).toContain('ParleyWidget:')
    expect(await page.locator('#parley-widget').count()).toBe(0)
    expect(log.filter((line) => line.startsWith('pageerror'))).toEqual([])
    await context.close()
  })

  test('a malformed key is explained in the console and installs nothing', async () => {
    host.page('/malformed', embedPage({ serverUrl: parley.url, widgetKey: 'pk_not_a_widget_key' }))
    const { page, console: log, context } = await openPage(browser)
    await page.goto(host.url('shop.test', '/malformed'))
    await page.waitForLoadState('load')
    for (let i = 0; i < 100 && warnings(log).length === 0; i++) await page.waitForTimeout(50)
    expect(warnings(log)).toEqual(['warning: ParleyWidget: data-widget-key must be the wk_... key of a web integration, got "pk_not_a_widget_key"; the widget is not shown'])
    expect(await page.evaluate(() => typeof (window as any).ParleyWidget)).toBe('undefined')
    await context.close()
  })

  test('the queue stub lets the page call the API first; the widget takes the calls over and checks them', async () => {
    const stubbed = `<script>${QUEUE_STUB}
ParleyWidget.identify('ada@lovelace.dev');
ParleyWidget.setContactDetails({ plan: { nested: true } });
</script>`
    host.page('/stub', embedPage({ serverUrl: parley.url, widgetKey: UNKNOWN_KEY, head: stubbed }))
    const { page, console: log, context } = await openPage(browser)
    await page.goto(host.url('shop.test', '/stub'))
    await page.waitForFunction(() => (window as any).ParleyWidget?.loaded === true)
    expect(await page.evaluate(() => (window as any).ParleyWidget.q)).toBeUndefined()
    expect(warnings(log)[0]).toBe('warning: ParleyWidget: setContactDetails(): "plan" is not a string, number or boolean; dropped')
    await context.close()
  })

  test('included twice, only the first copy runs, and says so', async () => {
    const second = `<script src="${parley.url}/widget.js" data-widget-key="${UNKNOWN_KEY}"></script>`
    host.page('/twice', embedPage({ serverUrl: parley.url, widgetKey: UNKNOWN_KEY, attributes: '', body: '' }).replace('</body>', `${second}\n</body>`))
    const { page, console: log, context } = await openPage(browser)
    await page.goto(host.url('shop.test', '/twice'))
    await page.waitForLoadState('load')
    await page.waitForFunction(() => (window as any).ParleyWidget?.loaded === true)
    expect(warnings(log)).toContain('warning: ParleyWidget: the widget script is included more than once; only the first copy runs')
    expect(log.filter((line) => line.startsWith('pageerror'))).toEqual([])
    await context.close()
  })
})
