import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { SAMPLE } from '../attachments/sample-files.ts'
import { freePort } from '../support/free-port.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT, launchBrowser } from './support/browser.ts'
import { embedPage, type HostPages, startHostPages } from './support/host-pages.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'
import { expectAccessible } from '../journeys/support/accessible.ts'

/** Where the screenshots of these tests go, to be looked at (PARLEY_SHOTS, else the temp folder). */
const SHOTS = process.env.PARLEY_SHOTS ?? '/tmp'
const MAX_BYTES = 200_000

/**
 * A visitor's pictures and PDFs, against the compiled `dist/parley` (the binary users run), in
 * headless Chromium: sent from the widget, drawn inline, stored as the visitor's media
 * message the API lists, served with safe headers; refused types and sizes shown in the bubble.
 */
describe('attachments from the widget, against the compiled binary, in Chromium', () => {
  let app: TestApp
  let browser: Browser
  let host: HostPages
  let serverUrl = ''
  const opened: WidgetPage[] = []

  beforeAll(async () => {
    // The files' addresses start with the public URL: here, where the binary listens.
    const port = freePort()
    app = testApp({ PARLEY_ATTACHMENT_MAX_BYTES: String(MAX_BYTES), PORT: String(port), PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}` })
    ;[browser] = await Promise.all([launchBrowser(), app.serveFromBinary()])
    serverUrl = app.binaryUrl()!
    host = startHostPages()
  }, 120_000)
  afterAll(async () => {
    for (const page of opened) await page.close()
    await browser?.close()
    await host?.stop()
    await app?.close()
  })

  /** A fresh chatbot on its own page; the visitor on it, the chat not opened yet. */
  async function visitorOnPage() {
    const chat = await setUpWebChat(app, { flow: null, web: { greeting_message: 'Hi! Send us a photo of the problem.' } })
    const path = `/${chat.chatbotId}`
    host.page(path, embedPage({ serverUrl, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(browser, { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })
    opened.push(visitor)
    const requested: string[] = []
    visitor.page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    await visitor.goto(host.url('shop.test', path))
    return { chat, visitor, requested }
  }

  /** A real picture, drawn by the browser: 240x160, a gradient. */
  async function drawnPng(visitor: WidgetPage): Promise<Buffer> {
    const dataUrl = await visitor.page.evaluate(() => {
      const canvas = document.createElement('canvas')
      canvas.width = 240
      canvas.height = 160
      const g = canvas.getContext('2d')!
      const fill = g.createLinearGradient(0, 0, 240, 160)
      fill.addColorStop(0, '#1f6f5c')
      fill.addColorStop(1, '#f2c14e')
      g.fillStyle = fill
      g.fillRect(0, 0, 240, 160)
      return canvas.toDataURL('image/png')
    })
    return Buffer.from(dataUrl.split(',')[1] as string, 'base64')
  }

  /** The messages of the chatbot's only conversation, as the API lists them to agents. */
  async function listedMessages(chatbotId: string) {
    const { id } = await agentDesk(app, chatbotId).onlyConversation()
    return (await app.call('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations/${id}/messages`)).body.items as { role: string; content: any }[]
  }

  const picker = (visitor: WidgetPage) => visitor.page.locator('#parley-widget input[type=file]')
  const inWidget = (visitor: WidgetPage, selector: string) => visitor.page.locator(`#parley-widget ${selector}`)

  test('the chat\'s own script loads only when the chat is first opened', async () => {
    const { visitor, requested } = await visitorOnPage()
    await visitor.connected()
    expect(requested).toContain('/widget.js')
    expect(requested.filter((path) => path.startsWith('/widget-chat'))).toEqual([])
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    expect(requested.filter((path) => path === '/widget-chat.js')).toHaveLength(1)
    expect(requested.filter((path) => path === '/widget-chat.css')).toHaveLength(1)
    // Closing and opening again loads nothing more.
    await inWidget(visitor, '.launcher').click()
    await visitor.openChat()
    expect(requested.filter((path) => path.startsWith('/widget-chat'))).toHaveLength(2)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test("if the chat's script cannot load, the chat closes again with a warning and the next click loads it", async () => {
    const { visitor, requested } = await visitorOnPage()
    await visitor.connected()
    await visitor.page.route('**/widget-chat.js*', (route) => route.abort())
    await visitor.launcher.click()
    await waitUntil(async () => visitor.warnings().some((line) => line.endsWith('; the chat cannot open')), 'the widget warns')
    await waitUntil(async () => (await visitor.launcher.getAttribute('aria-expanded')) === 'false', 'the chat closes again')
    expect(await visitor.window.count()).toBe(0)
    await visitor.page.unroute('**/widget-chat.js*')
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    expect(requested.filter((path) => path === '/widget-chat.js')).toHaveLength(2)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('a picture and a PDF sent with the paperclip show inline; the API lists the media messages; the address serves the bytes safely', async () => {
    const { chat, visitor } = await visitorOnPage()
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    await expect(inWidget(visitor, 'button.attach').getAttribute('aria-label')).resolves.toBe('Attach a file')
    const png = await drawnPng(visitor)
    await picker(visitor).setInputFiles({ name: 'broken zip.png', mimeType: 'image/png', buffer: png })
    const image = inWidget(visitor, '.msg.visitor:not(.pending) img.media')
    await image.waitFor()
    await waitUntil(async () => (await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 240, 'the picture is drawn from Parley')
    const src = (await image.getAttribute('src'))!
    expect(src.startsWith(`${serverUrl}/attachments/`)).toBe(true)
    expect(src).toMatch(/\/attachments\/[0-9A-Z]{26}\/[0-9A-Za-z]{32}\/broken%20zip\.png$/)

    await picker(visitor).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from(SAMPLE.pdf) })
    const card = inWidget(visitor, '.msg.visitor:not(.pending) a.file')
    await card.waitFor()
    expect(await card.textContent()).toBe('receipt.pdf')
    const pdfUrl = (await card.getAttribute('href'))!
    await visitor.window.screenshot({ path: `${SHOTS}/widget-attachments.png` })

    // The agents' side: the API lists both as the visitor's media messages.
    const listed = await listedMessages(chat.chatbotId)
    const media = listed.filter((message) => message.content.kind === 'media')
    expect(media.map((message) => [message.role, message.content.media.type, message.content.media.filename, message.content.media.url])).toEqual([
      ['visitor', 'image', 'broken zip.png', src],
      ['visitor', 'file', 'receipt.pdf', pdfUrl],
    ])

    // The address serves the exact bytes, never to be sniffed or run.
    const served = await fetch(src)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(png))
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    const pdf = await fetch(pdfUrl)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toStartWith('attachment;')
    expect((await fetch(src.replace(/\/[0-9A-Za-z]{32}\//, `/${'A'.repeat(32)}/`))).status).toBe(404)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('an SVG or HTML file named .png is refused by the server, the reason shown in its bubble; Remove puts it away', async () => {
    const { chat, visitor } = await visitorOnPage()
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    await picker(visitor).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE.svg) })
    const failed = inWidget(visitor, '.msg.visitor.failed')
    await failed.waitFor()
    expect(await failed.locator('.error-note').textContent()).toBe('Not delivered: Only PNG, JPEG, GIF or WebP images and PDF files can be sent; this file is an SVG image.')
    expect(await failed.locator('.file-name').textContent()).toBe('logo.png')
    await visitor.window.screenshot({ path: `${SHOTS}/widget-attachment-refused.png` })
    await expectAccessible(visitor.page, 'a file the server refused, its reason in its bubble')
    await failed.locator('button.dismiss').click()
    await waitUntil(async () => (await failed.count()) === 0, 'the refused file is put away')

    await picker(visitor).setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE.html) })
    await failed.waitFor()
    expect(await failed.locator('.error-note').textContent()).toContain('this file is HTML or XML')
    // Nothing was stored: the conversation has no visitor message.
    const listed = await listedMessages(chat.chatbotId)
    expect(listed.filter((message) => message.role === 'visitor')).toEqual([])
  }, E2E_TIMEOUT)

  test('while a picture uploads its bubble shows it from the device, dimmed, with a progress bar', async () => {
    const { visitor } = await visitorOnPage()
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    // The upload is held until the pending bubble has been looked at.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await visitor.page.route('**/widget/v1/attachments*', async (route) => {
      await held
      await route.continue()
    })
    await picker(visitor).setInputFiles({ name: 'preview.png', mimeType: 'image/png', buffer: await drawnPng(visitor) })
    const pending = inWidget(visitor, '.msg.visitor.pending')
    await inWidget(visitor, '.msg.visitor.pending img.media').waitFor()
    expect(await pending.locator('img.media').getAttribute('src')).toStartWith('data:image/png;base64,')
    expect(await pending.locator('[role=progressbar]').getAttribute('aria-label')).toBe('Sending preview.png')
    await visitor.window.screenshot({ path: `${SHOTS}/widget-attachment-sending.png` })
    release()
    const image = inWidget(visitor, '.msg.visitor:not(.pending) img.media')
    await image.waitFor()
    expect(await image.getAttribute('src')).toStartWith(`${serverUrl}/attachments/`)
    expect(await pending.count()).toBe(0)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('a file over the size limit, or of a type the picker does not offer, is refused before it is sent', async () => {
    const { visitor, requested } = await visitorOnPage()
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    const big = Buffer.alloc(MAX_BYTES + 50_000)
    big.set(SAMPLE.png)
    await picker(visitor).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big })
    const failed = inWidget(visitor, '.msg.visitor.failed')
    await failed.waitFor()
    expect(await failed.locator('.error-note').textContent()).toBe('Not delivered: The file is 244.2 KiB; files may be at most 195.3 KiB.')
    await expectAccessible(visitor.page, 'a file refused before it is sent (too large)')
    await failed.locator('button.dismiss').click()
    await picker(visitor).setInputFiles({ name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SAMPLE.svg) })
    await failed.waitFor()
    expect(await failed.locator('.error-note').textContent()).toBe('Not delivered: Only PNG, JPEG, GIF or WebP images and PDF files can be sent.')
    expect(requested.filter((path) => path.startsWith('/widget/v1/attachments'))).toEqual([])
  }, E2E_TIMEOUT)

  test('a picture dropped on the window or pasted into the text box is sent too; a file name is shown as text, never markup', async () => {
    const { visitor } = await visitorOnPage()
    await visitor.openChat()
    await visitor.shownText('Hi! Send us a photo of the problem.')
    const png = [...(await drawnPng(visitor))]
    await visitor.page.evaluate((bytes) => {
      const root = document.querySelector('#parley-widget')!.shadowRoot!
      const transfer = new DataTransfer()
      transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }))
      root.querySelector('.window')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
      const pasted = new DataTransfer()
      pasted.items.add(new File([new Uint8Array(bytes)], '<img src=x onerror=alert(1)>.png', { type: 'image/png' }))
      root.querySelector('textarea')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }))
    }, png)
    await waitUntil(async () => (await inWidget(visitor, '.msg.visitor:not(.pending) img.media').count()) === 2, 'both pictures are drawn')
    const names = await inWidget(visitor, '.msg.visitor img.media').evaluateAll((images) => images.map((img) => (img as HTMLImageElement).src.split('/').pop()))
    // Stored under a safe name: no angle brackets, so nothing in it reads as markup anywhere.
    // The two uploads run at once, so either may be stored first.
    expect(names.sort()).toEqual(['dropped.png', 'img%20src%3Dx%20onerror%3Dalert(1).png'])
    expect(await inWidget(visitor, '.log img:not(.media)').count()).toBe(0)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)
})
