#!/usr/bin/env bun
/**
 * Remakes the screenshots of docs/console.md: the compiled dist/parley (run
 * `bun scripts/build.ts` first) with a demo workspace, each console screen in Chromium at
 * desktop width, and the list and the overview at phone width.
 */
import { launchBrowser } from '../test/e2e/support/browser.ts'
import { ConsolePage } from '../test/e2e/support/console-page.ts'
import { deskBed } from '../test/e2e/support/desk-bed.ts'
import { waitUntil } from '../test/e2e/support/widget-page.ts'

const docs = new URL('../docs/', import.meta.url).pathname
const FLOW = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: { say: [{ text: 'Hello! Sales or support?' }], on: [{ equals: 'sales', to: 'sales' }, { equals: 'support', to: 'human' }, { to: 'welcome' }] },
    sales: { say: [{ text: 'Our plans start at 9 €/month.' }], next: 'human' },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
  },
}

const [browser, bed] = await Promise.all([launchBrowser(), deskBed()])
try {
  const ada = await bed.person('Ada', 'admin')
  const chat = await bed.webChat(FLOW as never, 'Support')
  await bed.webChat(undefined, 'Sales')
  await bed.must('POST', '/api/dev/v1/api-keys', { name: 'Back office' })
  const flowId = (await bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`)).items[0].id as string
  // A working copy with a mistake in it, to show how the editor and the diagram mark one.
  const draft = { ...FLOW, states: { ...FLOW.states, old_menu: { say: [{ text: 'Nobody comes here any more.' }] } } }
  await bed.must('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}/flows/${flowId}`, { flow: draft })
  const shots: [string, string, (page: ConsolePage) => Promise<void>][] = [
    ['console-chatbots', '/app/console', async (c) => void (await c.page.locator('table.chatbots').waitFor())],
    ['console-overview', `/app/console/bots/${chat.chatbotId}`, async (c) => void (await c.page.locator('.chart rect').first().waitFor({ state: 'attached' }))],
    ['console-widget', `/app/console/bots/${chat.chatbotId}/widget`, async (c) => {
      await c.page.frameLocator('iframe.preview-frame').locator('#parley-widget .launcher').waitFor()
      await c.page.locator('#field-primary_color').fill('#0a7d3b')
      await c.page.waitForTimeout(1200)
    }],
    ['console-flow-editor', `/app/console/bots/${chat.chatbotId}/flows/${flowId}`, async (c) => {
      await c.page.locator('.diagram svg').waitFor()
      await waitUntil(async () => (await c.page.locator('[data-save-state]').textContent()) === 'saved', 'saved')
      await c.page.locator('[data-issue]').first().waitFor()
    }],
    ['console-integrations', `/app/console/bots/${chat.chatbotId}/integrations`, async (c) => void (await c.page.locator('.llm').waitFor())],
    ['console-keys', '/app/console/keys', async (c) => void (await c.page.locator('table.keys').waitFor())],
    ['console-operations', '/app/console/operations', async (c) => {
      await c.page.locator('[data-version]').waitFor()
      await c.page.waitForTimeout(300)
    }],
  ]
  for (const [name, path, ready] of shots) {
    const page = await ConsolePage.open(browser, bed.url, { viewport: { width: 1360, height: 900 } })
    await page.signIn(ada, path)
    await ready(page)
    await page.page.screenshot({ path: `${docs}${name}.png`, fullPage: true })
    await page.close()
    console.log(`docs/${name}.png`)
  }
  for (const [name, path, selector] of [['console-phone-chatbots', '/app/console', 'table.chatbots'], ['console-phone-overview', `/app/console/bots/${chat.chatbotId}`, '.chart']] as const) {
    const page = await ConsolePage.open(browser, bed.url, { viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 1 })
    await page.signIn(ada, path)
    await page.page.locator(selector).first().waitFor()
    await page.page.screenshot({ path: `${docs}${name}.png`, fullPage: true })
    await page.close()
    console.log(`docs/${name}.png`)
  }
} finally {
  await browser.close()
  await bed.close()
}
