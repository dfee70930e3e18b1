import { describe, expect, test } from 'bun:test'
import type { FrameLocator } from 'playwright-core'
import { E2E_TIMEOUT } from './support/browser.ts'
import { consoleSuite } from './support/console-suite.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

describe('the widget screen of the console in Chromium, against the compiled binary', () => {
  const suite = consoleSuite()

  const themeOf = async (frame: FrameLocator) => (await frame.locator('#parley-widget .root').getAttribute('style')) ?? ''

  test('the preview is the real widget drawing the unsaved settings; limits are enforced as typed; saved, the snippet in a page shows the widget live', async () => {
    const chat = await suite.bed.webChat()
    const admin = await suite.consoleOf(suite.ada, `/app/console/bots/${chat.chatbotId}/widget`, { permissions: ['clipboard-read', 'clipboard-write'] })
    const { page } = admin
    const preview = page.frameLocator('iframe.preview-frame')
    await preview.locator('#parley-widget .launcher').waitFor()
    expect(await themeOf(preview)).toContain('--pw-primary: #0066ff')

    // Typed, not saved: the preview follows, the stored settings do not.
    await page.locator('#field-primary_color').fill('#aa1100')
    await page.locator('#field-bubble_text').fill('Ask the console bot')
    await waitUntil(async () => (await themeOf(preview)).includes('--pw-primary: #aa1100'), 'the preview in the new colour')
    await waitUntil(async () => ((await preview.locator('#parley-widget .launcher').textContent()) ?? '').includes('Ask the console bot'), 'the new launcher text')
    // The widget's language (issue 31): Hebrew, right to left, in the preview's open chat.
    expect(await page.locator('#field-locale option:checked').textContent()).toBe("Auto: the visitor's browser")
    await page.locator('#field-locale').selectOption('he')
    await waitUntil(async () => (await preview.locator('#parley-widget .root').getAttribute('dir')) === 'rtl', 'the preview right to left')
    expect(await preview.locator('#parley-widget .root').getAttribute('lang')).toBe('he')
    // Clicked in place: the preview frame is taller than this console window, its launcher below the fold.
    await preview.locator('#parley-widget .launcher').evaluate((launcher) => (launcher as HTMLElement).click())
    await waitUntil(async () => (await preview.locator('#parley-widget textarea').getAttribute('placeholder')) === 'כתבו הודעה…', 'the Hebrew composer in the preview')
    expect(await preview.locator('#parley-widget .window .close').getAttribute('aria-label')).toBe('סגירת הצ׳אט')
    await page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/console-widget-hebrew.png` })
    await preview.locator('#parley-widget .window .close').evaluate((close) => (close as HTMLElement).click())
    const stored = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/web`)
    expect(stored.config.widget_config.primary_color).toBe('#0066ff')

    // The spec's limits, as typed: a width of 900 is refused before it reaches the server.
    await page.locator('#field-width').fill('900')
    expect(await page.locator('[data-field-error=width]').textContent()).toBe('must be from 280 to 600')
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)
    await page.locator('#field-bot_display_name').fill('x'.repeat(61))
    expect(await page.locator('[data-field-error=bot_display_name]').textContent()).toContain('at most 60 characters')
    await page.locator('#field-bot_display_name').fill('Console bot')
    await page.locator('#field-width').fill('420')
    expect(await page.locator('[data-field-error]').count()).toBe(0)

    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').waitFor()
    const saved = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/web`)
    expect(saved.config.widget_config).toMatchObject({ primary_color: '#aa1100', bubble_text: 'Ask the console bot', width: 420, bot_display_name: 'Console bot', locale: 'he' })

    // The embed snippet, copied with its button, in a page elsewhere: the widget is live there with the saved settings.
    await page.getByRole('button', { name: 'Copy the embed snippet' }).click()
    const snippet = await page.evaluate(() => navigator.clipboard.readText())
    expect(snippet).toBe(`<script src="${suite.bed.url}/widget.js?key=${chat.widgetKey}" data-widget-key="${chat.widgetKey}" async></script>`)
    suite.host.page('/from-console', `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>${snippet}</body></html>`)
    const visitor = await WidgetPage.open(suite.browser)
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', '/from-console'))
    await visitor.launcher.waitFor()
    expect(await visitor.page.locator('#parley-widget .root').getAttribute('style')).toContain('--pw-primary: #aa1100')
    await visitor.openChat()
    await visitor.shownText('Hello! What can we do for you?')
    await visitor.sendText('hello from the snippet')
    await visitor.shownText('A person will answer you here shortly.')
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('the phone frame shows the same preview at phone size', async () => {
    const chat = await suite.bed.webChat(undefined, 'Phone preview bot')
    const admin = await suite.consoleOf(suite.ada, `/app/console/bots/${chat.chatbotId}/widget`)
    const { page } = admin
    await page.getByRole('button', { name: 'Phone' }).click()
    const frame = page.locator('iframe.preview-frame')
    await waitUntil(async () => (await frame.getAttribute('width')) === '375', 'the phone frame')
    await page.frameLocator('iframe.preview-frame').locator('#parley-widget .launcher').waitFor()

    // Closing the tab with a setting typed and not saved: the browser asks first (leaving for
    // another screen asks in the app: test/journeys/console-tools.test.ts).
    await page.locator('#field-bubble_text').fill('Not saved yet')
    const asked = new Promise<import('playwright-core').Dialog>((resolve) => page.once('dialog', resolve))
    await page.close({ runBeforeUnload: true })
    const dialog = await asked
    expect(dialog.type()).toBe('beforeunload')
    await dialog.accept()
  }, E2E_TIMEOUT)
})
