import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { setUpWebChat } from '../support/web-chat.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { type ImageHost, startImageHost } from './support/image-host.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

/** A page whose own CSS tries hard to restyle everything, the widget included. */
const HOSTILE_CSS = `<style>
  * { color: #00ff00 !important; font-size: 40px !important; font-family: serif !important; }
  button { background: #ff00ff !important; border: 5px solid black !important; }
  div { display: block; padding: 30px !important; }
</style>`

describe('widget_config applied, read back from computed styles in Chromium', () => {
  const suite = browserSuite()
  const { opened } = suite

  let images: ImageHost
  beforeAll(async () => {
    images = await startImageHost()
  })
  afterAll(() => images?.stop())

  async function visitChat(widgetConfig: Record<string, unknown>, viewport: { width: number; height: number }, head = '') {
    const chat = await setUpWebChat(suite.parley.app, { web: { widget_config: widgetConfig } })
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey, head }))
    // Reduced motion: no opening animation, so boxes are measured where they come to rest.
    // ignoreHTTPSErrors: the image host's test certificate is trusted by no browser.
    const visitor = await WidgetPage.open(suite.browser, { viewport, reducedMotion: 'reduce', ignoreHTTPSErrors: true })
    opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', path))
    await visitor.launcher.waitFor({ state: 'visible' })
    return visitor
  }

  const rgb = (hex: string) => {
    const n = (at: number) => Number.parseInt(hex.slice(at, at + 2), 16)
    return `rgb(${n(1)}, ${n(3)}, ${n(5)})`
  }

  test('colours, background, texts, avatar, font size, size and bottom-left position, whatever CSS the page has', async () => {
    const config = {
      primary_color: '#aa3300',
      secondary_color: '#ffe0cc',
      background_color: '#101820',
      bubble_text: 'Ask us',
      bot_display_name: 'Shop helper',
      bot_avatar_icon: 'robot',
      font_size: 18,
      position: 'bottom-left',
      width: 420,
      height: 640,
    }
    const viewport = { width: 1280, height: 900 }
    const visitor = await visitChat(config, viewport, HOSTILE_CSS)
    expect((await visitor.launcher.locator('.bubble-text').textContent())?.trim()).toBe('Ask us')
    expect(await visitor.styleOf('.launcher', ['background-color', 'color', 'font-size', 'border-top-width'])).toEqual({
      'background-color': rgb(config.primary_color),
      // Text on the primary colour: white reads better on this dark red.
      color: 'rgb(255, 255, 255)',
      'font-size': '15px',
      'border-top-width': '0px',
    })
    const bubble = (await visitor.launcher.boundingBox())!
    expect(bubble.x).toBe(20)
    expect(viewport.height - (bubble.y + bubble.height)).toBe(20)

    await visitor.openChat()
    await visitor.shownText('Pick one')
    await visitor.sendText('hello')
    await visitor.shownText('hello', 'visitor')
    const box = (await visitor.window.boundingBox())!
    expect({ x: box.x, width: box.width, height: box.height }).toEqual({ x: 20, width: 420, height: 640 })
    expect(await visitor.styleOf('.header', ['background-color', 'color'])).toEqual({ 'background-color': rgb(config.primary_color), color: 'rgb(255, 255, 255)' })
    expect(await visitor.page.locator('#parley-widget .title').textContent()).toBe('Shop helper')
    expect(await visitor.page.locator('#parley-widget .header .avatar svg').count()).toBe(1)
    expect(await visitor.styleOf('.log', ['background-color'])).toEqual({ 'background-color': rgb(config.background_color) })
    expect(await visitor.styleOf('.msg.bot', ['background-color', 'color', 'font-size'])).toEqual({
      'background-color': rgb(config.secondary_color),
      color: 'rgb(0, 0, 0)',
      'font-size': '18px',
    })
    expect(await visitor.styleOf('.msg.visitor', ['background-color', 'color'])).toEqual({ 'background-color': rgb(config.primary_color), color: 'rgb(255, 255, 255)' })
    expect(await visitor.styleOf('.choice', ['background-color'])).toEqual({ 'background-color': rgb(config.primary_color) })
    expect(await visitor.styleOf('textarea', ['font-size'])).toEqual({ 'font-size': '18px' })
  }, E2E_TIMEOUT)

  test('the defaults: bottom-right, the spec\'s colours, 380 x 600, and a 16 px text box so phones do not zoom', async () => {
    const viewport = { width: 1280, height: 800 }
    const visitor = await visitChat({}, viewport)
    expect((await visitor.launcher.locator('.bubble-text').textContent())?.trim()).toBe('Need Help?')
    const bubble = (await visitor.launcher.boundingBox())!
    expect(viewport.width - (bubble.x + bubble.width)).toBe(20)
    expect(await visitor.styleOf('.launcher', ['background-color'])).toEqual({ 'background-color': rgb('#0066ff') })
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const box = (await visitor.window.boundingBox())!
    expect({ right: viewport.width - (box.x + box.width), width: box.width, height: box.height }).toEqual({ right: 20, width: 380, height: 600 })
    expect(await visitor.styleOf('.log', ['background-color'])).toEqual({ 'background-color': 'rgb(255, 255, 255)' })
    expect(await visitor.styleOf('.msg.bot', ['background-color', 'font-size'])).toEqual({ 'background-color': rgb('#f0f4ff'), 'font-size': '13.5px' })
    expect(await visitor.styleOf('textarea', ['font-size'])).toEqual({ 'font-size': '16px' })
    expect(await visitor.page.locator('#parley-widget .header .avatar').count()).toBe(0)
  }, E2E_TIMEOUT)

  /** The header's avatar: an image (and whether it loaded) or an icon. */
  async function headerAvatar(visitor: WidgetPage) {
    return await visitor.page.locator('#parley-widget .header .avatar').evaluate((avatar) => {
      const img = avatar.querySelector('img')
      return img
        ? { image: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0, alt: img.getAttribute('alt'), referrerPolicy: img.referrerPolicy }
        : { icon: avatar.querySelectorAll('svg').length }
    })
  }

  test('bot_avatar_url: the header shows the image, drawn round, without telling its host the page', async () => {
    const url = images.url('/avatar.png')
    const visitor = await visitChat({ bot_avatar_url: url, bot_avatar_icon: 'store' }, { width: 1280, height: 800 })
    await visitor.openChat()
    const img = visitor.page.locator('#parley-widget .header .avatar img')
    await img.waitFor()
    await waitUntil(async () => (await headerAvatar(visitor)).loaded === true, 'the avatar image loaded', { seen: () => headerAvatar(visitor) })
    expect(await headerAvatar(visitor)).toEqual({ image: url, loaded: true, alt: '', referrerPolicy: 'no-referrer' })
    expect(await visitor.styleOf('.header .avatar', ['border-top-left-radius', 'width', 'overflow'])).toEqual({ 'border-top-left-radius': '50%', width: '34px', overflow: 'hidden' })
    expect(await visitor.styleOf('.header .avatar img', ['width', 'height', 'object-fit'])).toEqual({ width: '34px', height: '34px', 'object-fit': 'cover' })
    expect(images.requested).toContain('/avatar.png')
  }, E2E_TIMEOUT)

  test('a bot_avatar_url that fails to load falls back to the built-in icon (the robot when no icon is set)', async () => {
    const withIcon = await visitChat({ bot_avatar_url: images.url('/missing.png'), bot_avatar_icon: 'store' }, { width: 1280, height: 800 })
    await withIcon.openChat()
    await waitUntil(async () => 'icon' in (await headerAvatar(withIcon)), 'the icon stands in', { seen: () => headerAvatar(withIcon) })
    expect(await headerAvatar(withIcon)).toEqual({ icon: 1 })
    expect(await withIcon.page.locator('#parley-widget .header .avatar svg rect').count()).toBe(0)
    expect(images.requested).toContain('/missing.png')

    const withoutIcon = await visitChat({ bot_avatar_url: images.url('/gone.png') }, { width: 1280, height: 800 })
    await withoutIcon.openChat()
    await waitUntil(async () => 'icon' in (await headerAvatar(withoutIcon)), 'the robot stands in', { seen: () => headerAvatar(withoutIcon) })
    // The robot's outline: its head is the one <rect> among the icons.
    expect(await withoutIcon.page.locator('#parley-widget .header .avatar svg rect').count()).toBe(1)
    expect(withoutIcon.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('on a narrow phone the open chat fills the screen and the bubble steps aside', async () => {
    const viewport = { width: 390, height: 844 }
    const visitor = await visitChat({ width: 600, height: 800 }, viewport)
    await visitor.openChat()
    expect(await visitor.window.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 })
    expect(await visitor.launcher.isVisible()).toBe(false)
    await visitor.page.locator('#parley-widget .window .close').click()
    await visitor.launcher.waitFor({ state: 'visible' })
  }, E2E_TIMEOUT)
})
