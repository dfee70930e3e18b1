import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { type TestApp, testApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT, launchBrowser } from './support/browser.ts'
import { embedPage, type HostPages, startHostPages } from './support/host-pages.ts'
import { type ImageHost, startImageHost } from './support/image-host.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

const waitFor = (check: () => Promise<boolean>) => waitUntil(check, 'the condition holds')

/** Where the screenshots of these tests go, to be looked at (PARLEY_SHOTS, else the temp folder). */
const SHOTS = process.env.PARLEY_SHOTS ?? '/tmp'

/**
 * The widget's end rating, message times and "seen" marks, and agents' avatars, against the compiled `dist/parley` (the binary users run), in
 * headless Chromium: the visitor's side in the browser, the agents' side through the API.
 */
describe('the widget against the compiled binary, in Chromium', () => {
  let app: TestApp
  let browser: Browser
  let host: HostPages
  let images: ImageHost
  let serverUrl = ''
  const opened: WidgetPage[] = []

  beforeAll(async () => {
    app = testApp()
    ;[browser] = await Promise.all([launchBrowser(), app.serveFromBinary()])
    serverUrl = app.binaryUrl()!
    host = startHostPages()
    images = await startImageHost()
  }, 120_000)
  afterAll(async () => {
    for (const page of opened) await page.close()
    await browser?.close()
    await host?.stop()
    await images?.stop()
    await app?.close()
  })

  /** A fresh chatbot on its own page, the visitor in the open chat with the flow's first messages shown. */
  async function chatOpen(web: Record<string, unknown>) {
    const chat = await setUpWebChat(app, { web })
    const path = `/${chat.chatbotId}`
    host.page(path, embedPage({ serverUrl, widgetKey: chat.widgetKey }))
    // ignoreHTTPSErrors: the image host's test certificate is trusted by no browser.
    const visitor = await WidgetPage.open(browser, { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', ignoreHTTPSErrors: true })
    opened.push(visitor)
    await visitor.goto(host.url('shop.test', path))
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const desk = agentDesk(app, chat.chatbotId)
    const { id } = await desk.onlyConversation()
    return { visitor, desk, conversationId: id, chat }
  }

  describe('the end rating', () => {
    test('stars: the closed conversation asks once; the score and comment reach the API; another tab learns it', async () => {
      const { visitor, desk, conversationId } = await chatOpen({ widget_config: { rating: 'stars' } })
      const rating = visitor.page.locator('#parley-widget .rating')
      expect(await rating.count()).toBe(0)
      await desk.setStatus(conversationId, 'closed')
      await rating.waitFor({ state: 'visible' })
      expect(await visitor.page.locator('#parley-widget .ended').last().textContent()).toBe('Conversation ended')
      expect(await rating.getAttribute('aria-label')).toBe('Rate this conversation')

      await rating.getByRole('button', { name: '4 of 5' }).click()
      expect(await rating.getByRole('button', { name: '4 of 5' }).getAttribute('aria-pressed')).toBe('true')
      await rating.locator('textarea').fill('Quick and <b>kind</b>.')
      await visitor.window.screenshot({ path: `${SHOTS}/widget-rating-stars.png` })
      await rating.getByRole('button', { name: 'Send rating' }).click()
      await rating.getByRole('status').waitFor()
      expect(await rating.getByRole('status').textContent()).toBe('Thanks for your feedback (4 of 5).')

      const stored = await desk.conversation(conversationId)
      expect(stored.rating).toMatchObject({ scale: 'stars', score: 4, comment: 'Quick and <b>kind</b>.' })

      // Another tab of the visitor learns the rating with its welcome, so it never asks again.
      const tab = await visitor.newTab()
      await tab.goto(visitor.page.url())
      await tab.connected()
      expect(tab.received('welcome')[0]?.conversation).toMatchObject({ id: conversationId, status: 'closed', rating: { score: 4 } })
      await tab.page.close()
      expect(visitor.pageErrors()).toEqual([])
    }, E2E_TIMEOUT)

    test('thumbs: a thumbs down without a comment is stored as 0; a new message then starts the next conversation', async () => {
      const { visitor, desk, conversationId } = await chatOpen({ widget_config: { rating: 'thumbs' } })
      await desk.setStatus(conversationId, 'closed')
      const rating = visitor.page.locator('#parley-widget .rating')
      await rating.getByRole('button', { name: 'Bad' }).click()
      await visitor.window.screenshot({ path: `${SHOTS}/widget-rating-thumbs.png` })
      await rating.getByRole('button', { name: 'Send rating' }).click()
      await rating.getByRole('status').waitFor()
      expect(await rating.getByRole('status').textContent()).toBe('Thanks for your feedback.')
      expect((await desk.conversation(conversationId)).rating).toMatchObject({ scale: 'thumbs', score: 0, comment: null })

      await visitor.sendText('One more thing')
      await visitor.shownText('One more thing', 'visitor')
      await rating.waitFor({ state: 'detached' })
    }, E2E_TIMEOUT)

    test('without widget_config.rating the ended conversation shows only the divider', async () => {
      const { visitor, desk, conversationId } = await chatOpen({})
      await desk.setStatus(conversationId, 'closed')
      await visitor.page.locator('#parley-widget .ended').waitFor()
      expect(await visitor.page.locator('#parley-widget .rating').count()).toBe(0)
    }, E2E_TIMEOUT)
  })

  describe('message times and "seen" marks', () => {
    test('times label each group in local time; the bot and an agent mark the visitor\'s message seen; the visitor\'s read reaches the API', async () => {
      const { visitor, desk, conversationId } = await chatOpen({})
      const times = visitor.page.locator('#parley-widget .log time.time')
      await times.first().waitFor()
      // Greeting and the flow's first messages arrived together: one group, one label.
      expect(await times.count()).toBe(1)
      expect(await times.first().textContent()).toBe('Just now')
      const stamped = (await times.first().getAttribute('datetime')) ?? ''
      expect(Math.abs(Date.parse(stamped) - Date.now())).toBeLessThan(60_000)

      // The bot answers, so it has read the visitor's text.
      await visitor.sendText('pricing please')
      await visitor.shownText('What is your email?')
      const seen = visitor.page.locator('#parley-widget .log .seen')
      await seen.waitFor()
      expect(await seen.count()).toBe(1)
      const seenUnder = await seen.evaluate((mark) => mark.previousElementSibling?.textContent ?? '')
      expect(seenUnder).toContain('pricing please')

      // In a handoff, the next message waits for an agent to read it.
      await desk.setStatus(conversationId, 'handoff')
      await visitor.sendText('Is anyone there?')
      await visitor.shownText('Is anyone there?', 'visitor')
      expect(await seen.evaluate((mark) => mark.previousElementSibling?.textContent ?? '')).toContain('pricing please')
      await visitor.window.screenshot({ path: `${SHOTS}/widget-times-before-read.png` })
      const marked = await app.call('POST', `/api/dev/v1/chatbots/${(await desk.conversation(conversationId)).chatbot_id}/conversations/${conversationId}/read`)
      expect(marked.status).toBe(200)
      await waitFor(async () => (await seen.evaluate((mark) => mark.previousElementSibling?.textContent ?? '')).includes('Is anyone there?'))
      expect(await seen.count()).toBe(1)
      await desk.say(conversationId, 'Yes, Sam here.', 'Sam')
      await visitor.shownText('Yes, Sam here.', 'agent')
      await visitor.window.screenshot({ path: `${SHOTS}/widget-times-seen.png` })

      // The visitor has the chat open: they have seen the agent's answer, and the API says so.
      const messages = await desk.messages(conversationId)
      await waitFor(async () => (await desk.conversation(conversationId)).reads.visitor?.up_to === messages.at(-1)!.id)
      expect(visitor.pageErrors()).toEqual([])
    }, E2E_TIMEOUT)

    test('a closed chat does not tell agents the visitor has seen a new message', async () => {
      const { visitor, desk, conversationId } = await chatOpen({})
      await waitFor(async () => (await desk.conversation(conversationId)).reads.visitor !== null)
      const before = (await desk.conversation(conversationId)).reads.visitor
      await visitor.page.locator('#parley-widget .window .close').click()
      await visitor.window.waitFor({ state: 'detached' })
      await desk.say(conversationId, 'Are you still there?', 'Sam')
      await visitor.page.locator('#parley-widget .launcher .badge').waitFor()
      expect((await desk.conversation(conversationId)).reads.visitor).toEqual(before)
      await visitor.openChat()
      const messages = await desk.messages(conversationId)
      await waitFor(async () => (await desk.conversation(conversationId)).reads.visitor?.up_to === messages.at(-1)!.id)
    }, E2E_TIMEOUT)
  })

  describe("agents' names and avatars", () => {
    test('an agent message shows the picture given, initials without one or when it fails to load, and "Agent" without a name', async () => {
      const { visitor, desk, conversationId, chat } = await chatOpen({})
      const post = async (body: Record<string, unknown>) => {
        const result = await app.call('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${conversationId}/messages`, { body })
        expect(result.status).toBe(201)
      }
      await post({ text: 'Hi, Maya here.', author: 'Maya Lin', author_avatar_url: images.url('/avatar.png') })
      await visitor.shownText('Hi, Maya here.', 'agent')
      const heads = visitor.page.locator('#parley-widget .log .msg.agent .agent-head')
      const picture = heads.nth(0).locator('.face img')
      await waitFor(async () => (await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 1)
      expect(await picture.getAttribute('referrerpolicy')).toBe('no-referrer')
      expect(await heads.nth(0).locator('.author').textContent()).toBe('Maya Lin')
      expect(images.requested).toContain('/avatar.png')

      await post({ text: 'And Sam.', author: 'sam' })
      await post({ text: 'A broken picture.', author: 'Maya Lin', author_avatar_url: images.url('/gone.png') })
      await desk.say(conversationId, 'Nameless.')
      await visitor.shownText('Nameless.', 'agent')
      expect(await heads.nth(1).locator('.face').textContent()).toBe('S')
      await waitFor(async () => (await heads.nth(2).locator('.face').textContent()) === 'ML')
      expect(await heads.nth(2).locator('.face img').count()).toBe(0)
      expect(await heads.nth(3).locator('.face').textContent()).toBe('A')
      expect(await heads.nth(3).locator('.author').textContent()).toBe('Agent')
      expect(await heads.nth(0).locator('.face').getAttribute('aria-hidden')).toBe('true')
      await visitor.window.screenshot({ path: `${SHOTS}/widget-agent-avatars.png` })
      expect(visitor.pageErrors()).toEqual([])
    }, E2E_TIMEOUT)
  })
})
