import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT, launchBrowser } from './support/browser.ts'
import { type ParleyServer, startParley } from './support/parley-server.ts'
import { WidgetPage } from './support/widget-page.ts'

describe('the demo page at / in Chromium', () => {
  let browser: Browser
  let parley: ParleyServer
  let visitor: WidgetPage | undefined

  beforeAll(async () => {
    ;[browser, parley] = await Promise.all([launchBrowser(), startParley()])
  }, 60_000)
  afterAll(async () => {
    await visitor?.close()
    await browser?.close()
    await parley?.stop()
  })

  test('after first start, / embeds the demo chatbot: it greets, answers its buttons, and an agent can answer through the API', async () => {
    const workspaceId = await parley.app.services.workspaces.authenticate(parley.app.key)
    if (!workspaceId) throw new Error('the test key has no workspace')
    const demo = await parley.app.services.demo.create(workspaceId)

    visitor = await WidgetPage.open(browser)
    await visitor.goto(`${parley.url}/`)
    expect(await visitor.page.locator('a[href="/api/dev/v1/reference"]').count()).toBe(1)
    expect(await visitor.page.locator('pre code').textContent()).toContain(demo.widgetKey)
    await visitor.connected()
    await visitor.openChat()
    expect(await visitor.page.locator('#parley-widget .title').textContent()).toBe('Parley demo')
    await visitor.shownText('Hi! I am the demo bot of this Parley server.', 'bot')
    await visitor.shownText('What would you like to try?', 'bot')
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Talk to a person' }).click()
    await visitor.shownText('A person will answer here. (Post to the conversations API to answer as one.)', 'bot')

    const desk = agentDesk(parley.app, demo.chatbotId)
    const { id, status } = await desk.onlyConversation()
    expect(status).toBe('handoff')
    await desk.say(id, 'Hello from a real person.', 'Alex')
    const shown = await visitor.shownText('Hello from a real person.', 'agent')
    expect(shown.at(-1)?.author).toBe('Alex')
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)
})
