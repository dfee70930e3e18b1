#!/usr/bin/env bun
/**
 * npm run screenshots:desk: remakes docs/desk-desktop.png (1280x800) and docs/desk-phone.png
 * (390x844), the desk in headless Chromium mid-shift: three visitors handed over from the
 * widget on a sample shop page, one conversation open with the bot's buttons and list, the
 * visitor's picks, the handoff on the timeline, a person's reply, a private note and the
 * context panel. A real Parley (in this process, on a free port) runs it all; nothing is mocked.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { ConversationFlow } from '../server/flow-language/conversation-flow-schema.ts'
import { buildApp } from './build-app.ts'
import { buildWidget } from './build-widget.ts'
import { startScreenshotServer } from './start-screenshot-server.ts'

const root = join(import.meta.dir, '..')

const SHOP_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: {
      say: [{ text: 'I can help with orders, returns and sizes.', buttons: [{ id: 'order', title: 'Where is my order?' }, { id: 'returns', title: 'Returns' }] }],
      on: [{ button: 'order', to: 'order' }, { button: 'returns', to: 'returns' }, { to: 'human' }],
    },
    order: {
      say: [
        {
          text: 'Which order is it about?',
          button: 'Choose an order',
          sections: [{ title: 'Recent orders', rows: [{ id: 'o1042', title: '#1042 Trail jacket', description: 'Shipped on 3 March' }, { id: 'o1038', title: '#1038 Wool socks' }] }],
        },
      ],
      on: [{ row: 'o1042', to: 'shipped' }, { to: 'human' }],
    },
    shipped: { say: [{ text: 'Order #1042 is on its way and should arrive on Friday.' }], on: [{ to: 'human' }] },
    returns: { say: [{ text: 'You can return anything within 30 days, free of charge.' }], on: [{ to: 'human' }] },
    human: { handoff: { text: 'A person from our team will answer here.' } },
  },
}

const VISITORS = [
  { name: 'Tom Becker', email: 'tom@example.net', says: ['Do you ship to Norway?'] },
  { name: 'Priya Nair', email: 'priya@example.org', says: ['Can I swap my jacket for a larger size?'] },
  { name: 'Maya Lopez', email: 'maya@example.com', order: true, says: ['It says Friday but I leave on Thursday. Can you hurry it up?'] },
]

const SHOP_PAGE = (serverUrl: string, widgetKey: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Northwind Outfitters</title></head>
<body><h1>Northwind Outfitters</h1><script src="${serverUrl}/widget.js" data-widget-key="${widgetKey}" async></script></body></html>`

await buildWidget()
await buildApp()
const { app, serverUrl, workspaceId, browser, shopSite, close } = await startScreenshotServer('desk-screenshots')
const person = { email: 'sam@northwind.example', password: 'screenshots-correct-horse' }
await app.services.people.createWithPassword(workspaceId, { email: person.email, display_name: 'Sam', role: 'admin' }, person.password)

try {
  const bot = app.services.chatbots.create(workspaceId, { name: 'Northwind' })
  const flow = await app.services.flows.create(workspaceId, bot.id, { name: 'Shop help', type: 'conversation', flow: SHOP_FLOW })
  await app.services.flows.publish(workspaceId, bot.id, flow.id)
  const web = await app.services.integrations.web.create(workspaceId, bot.id, { name: 'Shop', greeting_message: 'Hi! I am the Northwind assistant.' })
  const site = shopSite(SHOP_PAGE(serverUrl, web.config.widget_key))
  for (const visitor of VISITORS) await chat(browser, `http://shop.test:${site.port}/checkout`, visitor)

  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const phone = name === 'phone'
    const context = await browser.newContext({ viewport, deviceScaleFactor: phone ? 2 : 1, reducedMotion: 'reduce', hasTouch: phone, isMobile: phone })
    const page = await context.newPage()
    await signIn(page)
    // Answered on the desktop pass, Maya no longer waits: she is Sam's, under Mine.
    if (phone) await page.locator('.view[data-view=mine]').click()
    await page.locator('.row', { hasText: 'Maya Lopez' }).click()
    await page.locator('.message.event').first().waitFor()
    if (!phone) {
      await page.locator('#composer').fill('Hi Maya, I have moved it to express delivery: it will reach you on Wednesday.')
      await page.locator('#composer').press('Enter')
      await page.locator('[data-mode="note"]').click()
      await page.locator('#composer').fill('Courier confirmed the express slot; no charge to the customer.')
      await page.locator('#composer').press('Enter')
      await page.locator('.message.note').waitFor()
      await page.getByRole('tab', { name: 'Reply' }).click()
      await page.getByRole('button', { name: 'Context' }).click()
      await page.locator('aside.context [data-field="state"]').waitFor()
    } else {
      await page.locator('.message.agent').waitFor()
    }
    await page.mouse.move(0, 0)
    await page.waitForTimeout(300)
    const file = join(root, 'docs', `desk-${name}.png`)
    await page.screenshot({ path: file })
    console.log(`wrote ${file.slice(root.length + 1)} (${viewport.width}x${viewport.height})`)
    await context.close()
  }
  site.stop(true)
} finally {
  await close()
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${serverUrl}/app/sign-in`)
  await page.locator('input[name=email]').fill(person.email)
  await page.locator('input[name=password]').fill(person.password)
  await page.locator('button[type=submit]').click()
  await page.locator('.list .row').first().waitFor()
}

/** One visitor in a browser of their own: named, through the bot's buttons and list, to a person. */
async function chat(browser: Browser, url: string, visitor: (typeof VISITORS)[number]): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto(url)
  const widget = (selector: string) => page.locator(`#parley-widget ${selector}`)
  await widget('.launcher').click()
  await page.evaluate((details) => (window as unknown as { ParleyWidget: { setContactDetails(d: object): void } }).ParleyWidget.setContactDetails(details), {
    name: visitor.name,
    email: visitor.email,
  })
  if (visitor.order) {
    await widget('button.choice').filter({ hasText: 'Where is my order?' }).click()
    await widget('button.choice').filter({ hasText: 'Choose an order' }).click()
    await widget('button.row').filter({ hasText: '#1042' }).click()
    await widget('.msg.bot').filter({ hasText: 'should arrive on Friday' }).waitFor()
  }
  for (const text of visitor.says) {
    await widget('textarea, input[type=text]').first().fill(text)
    await widget('textarea, input[type=text]').first().press('Enter')
  }
  await widget('.msg.bot').filter({ hasText: 'A person from our team' }).waitFor()
  await context.close()
}
