import { describe, expect, test } from 'bun:test'
import { setUpWebChat } from '../support/web-chat.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

/**
 * A returning visitor's widget is drawn from the configuration the browser stored on the last
 * visit, before the server answers again; the server's answer wins once it comes.
 */
describe('a repeat visit in Chromium: the bubble at once, then what the server says', () => {
  const suite = browserSuite()
  const { opened } = suite

  async function returningVisitor(widgetConfig: Record<string, unknown>) {
    const chat = await setUpWebChat(suite.parley.app, { web: { widget_config: widgetConfig } })
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    opened.push(visitor)
    const url = suite.host.url('shop.test', path)
    await visitor.goto(url)
    await visitor.connected()
    // The configuration route is held back on the next visits until the test lets it answer.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let asked = 0
    await visitor.page.route('**/widget/v1/config/**', async (route) => {
      asked++
      await held
      await route.continue()
    })
    const launcherText = async () => (await visitor.launcher.locator('.bubble-text').textContent())?.trim()
    return { chat, visitor, url, release, asked: () => asked, launcherText }
  }

  test('the stored bubble is drawn while the configuration is still on its way; changed settings are drawn in place once it comes', async () => {
    const { chat, visitor, url, release, asked, launcherText } = await returningVisitor({ bubble_text: 'Ask us', primary_color: '#0066ff' })
    await suite.parley.app.call('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/web`, { body: { widget_config: { bubble_text: 'Questions?', primary_color: '#aa0000' } } })
    await visitor.goto(url)
    await visitor.launcher.waitFor({ state: 'visible' })
    expect(await launcherText()).toBe('Ask us')
    expect(await visitor.styleOf('.launcher', ['background-color'])).toEqual({ 'background-color': 'rgb(0, 102, 255)' })
    // Drawn before the configuration was asked for again, which is held back now.
    await waitUntil(async () => asked() === 1, 'the configuration asked for again')
    // The visitor is already on the bubble when the new settings come: it must stay the same element, focused.
    await visitor.page.evaluate(() => {
      const launcher = document.querySelector('#parley-widget')!.shadowRoot!.querySelector('.launcher') as HTMLButtonElement
      ;(window as unknown as { drawnLauncher: Element }).drawnLauncher = launcher
      launcher.focus()
    })
    release()
    await waitUntil(async () => (await launcherText()) === 'Questions?', 'the new bubble text is drawn')
    expect(await visitor.styleOf('.launcher', ['background-color'])).toEqual({ 'background-color': 'rgb(170, 0, 0)' })
    expect(await visitor.page.evaluate(() => (window as unknown as { drawnLauncher: Element }).drawnLauncher === document.querySelector('#parley-widget')!.shadowRoot!.querySelector('.launcher'))).toBe(true)
    expect((await visitor.focused()).widget).toBe('button.launcher')
    // One widget, one socket, and the conversation still there.
    expect(await visitor.page.locator('#parley-widget').count()).toBe(1)
    await visitor.connected(2)
    await visitor.openChat()
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('a widget whose key was removed since goes once the server says so, and is not drawn on the next visit', async () => {
    const { chat, visitor, url, release } = await returningVisitor({})
    const removed = await suite.parley.app.call('DELETE', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/${chat.integrationId}`)
    expect(removed.status).toBe(204)
    await visitor.goto(url)
    await visitor.launcher.waitFor({ state: 'visible' })
    release()
    await waitUntil(async () => (await visitor.page.locator('#parley-widget').count()) === 0, 'the widget is removed')
    expect(visitor.warnings().some((line) => line.includes('the server refused this widget'))).toBe(true)
    await visitor.page.unroute('**/widget/v1/config/**')
    await visitor.goto(url)
    await Bun.sleep(500)
    expect(await visitor.page.locator('#parley-widget').count()).toBe(0)
  }, E2E_TIMEOUT)

  test('the bubble needs nothing but widget.js: drawn while widget-live.js is held back; a click meanwhile opens the chat once it comes', async () => {
    const chat = await setUpWebChat(suite.parley.app, { web: { widget_config: { bubble_text: 'Talk to us' } } })
    const path = `/held-${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    opened.push(visitor)
    let release = () => {}
    let held = Promise.resolve()
    const hold = () => (held = new Promise<void>((resolve) => (release = resolve)))
    let asked = 0
    await visitor.page.route('**/widget-live.js*', async (route) => {
      asked++
      await held
      await route.continue()
    })
    hold()
    await visitor.goto(suite.host.url('shop.test', path))
    await visitor.launcher.waitFor({ state: 'visible' })
    expect((await visitor.launcher.locator('.bubble-text').textContent())?.trim()).toBe('Talk to us')
    expect(await visitor.launcher.getAttribute('aria-expanded')).toBe('false')
    await waitUntil(async () => asked === 1, 'widget-live.js asked for once the bubble is drawn')
    expect(visitor.sockets).toHaveLength(0)
    await visitor.launcher.click()
    release()
    await visitor.window.waitFor({ state: 'visible' })
    await visitor.connected()
    expect(await visitor.launcher.getAttribute('aria-expanded')).toBe('true')
    // Reloaded with the chat open, the bubble is drawn open (the close icon, no text) before widget-live.js has come.
    hold()
    await visitor.page.reload()
    await visitor.launcher.waitFor({ state: 'visible' })
    await waitUntil(async () => asked === 2, 'widget-live.js asked for again')
    expect(await visitor.launcher.getAttribute('aria-expanded')).toBe('true')
    expect(await visitor.page.locator('#parley-widget .launcher.open').count()).toBe(1)
    expect(await visitor.page.locator('#parley-widget .launcher .bubble-text').count()).toBe(0)
    release()
    await visitor.window.waitFor({ state: 'visible' })
    expect(await visitor.launcher.getAttribute('aria-expanded')).toBe('true')
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)
})
