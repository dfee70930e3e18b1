#!/usr/bin/env bun
/**
 * npm run screenshots:widget: remakes docs/widget-desktop.png (1280x800) and
 * docs/widget-phone.png (390x844), the open widget in headless Chromium on a sample shop
 * page, mid-conversation: buttons, a list, the visitor's picks, a link, a picture the visitor
 * sent (through the paperclip, stored and drawn inline) and an agent's answer.
 * A real Parley (in this process, on a free port) runs the flow; nothing is mocked.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { ConversationFlow } from '../server/flow-language/conversation-flow-schema.ts'
import { buildWidget } from './build-widget.ts'
import { startScreenshotServer } from './start-screenshot-server.ts'

const root = join(import.meta.dir, '..')

const SHOP_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: {
      say: [
        {
          text: 'I can help with orders, returns and sizes.',
          buttons: [
            { id: 'order', title: 'Where is my order?' },
            { id: 'returns', title: 'Returns' },
            { id: 'sizes', title: 'Size guide' },
          ],
        },
      ],
      on: [
        { button: 'order', to: 'order' },
        { button: 'returns', to: 'returns' },
        { button: 'sizes', to: 'sizes' },
        { to: 'human' },
      ],
    },
    order: {
      say: [
        {
          text: 'Which order is it about?',
          button: 'Choose an order',
          sections: [
            {
              title: 'Recent orders',
              rows: [
                { id: 'o1042', title: '#1042 Trail jacket', description: 'Shipped on 3 March' },
                { id: 'o1038', title: '#1038 Wool socks', description: 'Delivered' },
              ],
            },
          ],
        },
      ],
      on: [{ row: 'o1042', to: 'shipped' }, { to: 'human' }],
    },
    shipped: {
      say: [{ text: 'Order #1042 is on its way and should arrive on Friday. Follow it at https://northwind.example/track/1042' }],
      on: [{ to: 'human' }],
    },
    returns: { say: [{ text: 'You can return anything within 30 days, free of charge.' }], end: true },
    sizes: { say: [{ text: 'Our jackets run true to size.' }], end: true },
    human: { handoff: { text: 'A person from our team will answer here.' } },
  },
}

/** A plausible customer page around the widget, self-contained like everything else. */
const SHOP_PAGE = (serverUrl: string, widgetKey: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Northwind Outfitters</title>
<style>
  body { margin: 0; font-family: Georgia, 'Times New Roman', serif; color: #23302b; background: #f6f3ee; }
  header { display: flex; justify-content: space-between; align-items: center; padding: 22px 40px; background: #fff; border-bottom: 1px solid #e4ded3; }
  header strong { font-size: 22px; letter-spacing: 0.5px; }
  nav a { margin-left: 24px; color: #23302b; text-decoration: none; font-family: system-ui, sans-serif; font-size: 15px; }
  main { max-width: 1100px; padding: 56px 40px; }
  h1 { font-size: 44px; margin: 0 0 16px; max-width: 560px; line-height: 1.15; }
  p { font-size: 18px; max-width: 520px; line-height: 1.6; font-family: system-ui, sans-serif; color: #4d5a55; }
  .cards { display: flex; gap: 20px; margin-top: 40px; flex-wrap: wrap; }
  .card { width: 180px; height: 220px; border-radius: 12px; background: linear-gradient(160deg, #dfe9e4, #c3d6cd); }
  .card:nth-child(2) { background: linear-gradient(160deg, #efe3d3, #dcc8ad); }
  .card:nth-child(3) { background: linear-gradient(160deg, #dde3ec, #bfc9d9); }
  @media (max-width: 600px) { header { padding: 16px 20px; } nav { display: none; } main { padding: 32px 20px; } h1 { font-size: 32px; } }
</style></head>
<body>
<header><strong>Northwind Outfitters</strong><nav><a href="#">Jackets</a><a href="#">Knitwear</a><a href="#">Footwear</a><a href="#">Journal</a></nav></header>
<main>
  <h1>Made for weather that changes its mind.</h1>
  <p>Waxed cotton, merino and recycled down, built to be repaired rather than replaced.</p>
  <div class="cards"><div class="card"></div><div class="card"></div><div class="card"></div></div>
</main>
<script src="${serverUrl}/widget.js" data-widget-key="${widgetKey}" async></script>
</body></html>`

await buildWidget()
const { app, serverUrl, workspaceId, browser, shopSite, close } = await startScreenshotServer('screenshots')

try {
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    // A chatbot per picture, so each shows one conversation from its start.
    const bot = app.services.chatbots.create(workspaceId, { name: 'Northwind' })
    const flow = await app.services.flows.create(workspaceId, bot.id, { name: 'Shop help', type: 'conversation', flow: SHOP_FLOW })
    await app.services.flows.publish(workspaceId, bot.id, flow.id)
    const web = await app.services.integrations.web.create(workspaceId, bot.id, {
      name: 'Shop',
      greeting_message: 'Hi! I am the Northwind assistant.',
      widget_config: { bot_display_name: 'Northwind help', primary_color: '#1f6f5c', secondary_color: '#eef4f1', bot_avatar_icon: 'store', bubble_text: 'Questions?' },
    })
    const site = shopSite(SHOP_PAGE(serverUrl, web.config.widget_key))
    const context = await browser.newContext({ viewport, deviceScaleFactor: name === 'phone' ? 2 : 1, reducedMotion: 'reduce', hasTouch: name === 'phone', isMobile: name === 'phone' })
    const page = await context.newPage()
    await page.goto(`http://shop.test:${site.port}/`)
    await converse(page, bot.id)
    await page.mouse.move(0, 0)
    const file = join(root, 'docs', `widget-${name}.png`)
    await page.screenshot({ path: file })
    console.log(`wrote ${file.slice(root.length + 1)} (${viewport.width}x${viewport.height})`)
    await context.close()
    site.stop(true)
  }
} finally {
  await close()
}

/** Opens the chat and plays a short conversation: a button, a list row, a photo sent, then an agent answers. */
async function converse(page: Page, chatbotId: string): Promise<void> {
  const widget = (selector: string) => page.locator(`#parley-widget ${selector}`)
  await widget('.launcher').click()
  await widget('button.choice').filter({ hasText: 'Where is my order?' }).click()
  await widget('button.choice').filter({ hasText: 'Choose an order' }).click()
  await widget('button.row').filter({ hasText: '#1042' }).click()
  await widget('.msg.bot').filter({ hasText: 'should arrive on Friday' }).waitFor()
  // The visitor sends a photo through the paperclip: a picture from the page itself.
  const photo = await page.locator('.card').nth(1).screenshot()
  await widget('input[type=file]').setInputFiles({ name: 'parcel.png', mimeType: 'image/png', buffer: photo })
  const sent = widget('.msg.visitor:not(.pending) img.media')
  await sent.waitFor()
  await page.waitForFunction(() => {
    const image = document.querySelector('#parley-widget')?.shadowRoot?.querySelector('.msg.visitor:not(.pending) img.media') as HTMLImageElement | null
    return Boolean(image?.complete && image.naturalWidth > 0)
  })
  const [conversation] = app.services.desk.list(workspaceId, chatbotId, {}, { limit: 1, offset: 0 }).items
  if (!conversation) throw new Error('no conversation was started')
  app.services.desk.post(workspaceId, chatbotId, conversation.id, 'Hi, Maya here. It left our warehouse this morning; I will keep an eye on it for you.', 'Maya')
  await widget('.msg.agent').waitFor()
  app.services.desk.typing(workspaceId, chatbotId, conversation.id, true)
  await widget('.typing').waitFor()
  await page.keyboard.type('Thank you!')
}
