import { describe, expect, test } from 'bun:test'
import { expectAccessible, expectInViewport, journey, JOURNEY_TIMEOUT, screenshot, waitUntil } from './support/journey.ts'

/** What the admin pastes into the flow editor: a welcome with buttons, and a person on request. */
const SUPPORT_FLOW = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: {
      say: [{ text: 'Hi! I am the Northwind assistant.', buttons: [{ id: 'order', title: 'Where is my order?' }, { id: 'human', title: 'Talk to a person' }] }],
      on: [{ button: 'order', to: 'order' }, { button: 'human', to: 'human' }, { to: 'human' }],
    },
    order: { say: [{ text: 'Orders ship within two days.' }], on: [{ to: 'human' }] },
    human: { handoff: { text: 'A person from our team will answer here.' } },
  },
}

const ADMIN = { email: 'ada@northwind.test', name: 'Ada', password: 'ada-correct-horse-battery' }

/**
 * A new team's first day, in Chromium against the compiled binary: the admin opens the
 * first-admin link the first start printed, makes a chatbot in the console, writes and
 * publishes its flow, builds its widget, and puts it on the shop; a visitor on a phone is
 * handed over, answered and rates the conversation; the team sees the rating on the desk and
 * the console's CSAT. Each actor's view is checked where they look: in the viewport.
 */
describe('journey: the first day of a new team', () => {
  const day = journey()

  test('first-admin link, chatbot, flow, widget, a visitor handed off, answered, rated, and the rating seen by the team', async () => {
    const { parley } = day
    const admin = await day.actor('desktop')
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: parley.url })
    const page = admin.page

    // Parley's own front page leads to the desk and the console.
    await page.goto(`${parley.url}/`)
    await expectInViewport(page.getByRole('link', { name: 'desk' }), 'the link to the desk on /')
    await expectInViewport(page.getByRole('link', { name: 'console' }), 'the link to the console on /')
    await expectAccessible(page, 'the front page')

    // The link the first start printed creates the first admin, who lands on the desk.
    await page.goto(parley.setupLink)
    await expectInViewport(page.locator('input[name=email]'), 'the first admin form')
    await expectAccessible(page, 'the first-admin page')
    await page.locator('input[name=email]').fill(ADMIN.email)
    await page.locator('input[name=display_name]').fill(ADMIN.name)
    await page.locator('input[name=password]').fill(ADMIN.password)
    await page.locator('input[name=repeat]').fill(ADMIN.password)
    await page.locator('button[type=submit]').click()
    await page.locator('.desk').waitFor()
    await expectInViewport(page.locator('[data-nav=console]'), "the desk's link to the console, for an admin")
    await screenshot(page, 'first-day-1-desk-first-visit')
    await expectAccessible(page, 'the empty desk')

    // The same link again (a colleague it was forwarded to): used, said at once, and how to get a new one.
    const colleague = await day.actor('desktop')
    await colleague.page.goto(parley.setupLink)
    const dead = colleague.page.locator('[data-dead-link]')
    await expectInViewport(dead.locator('.form-error'), 'the used first-admin link said at once')
    expect(await dead.locator('.form-error').textContent()).toContain('already used')
    expect(await dead.textContent()).toContain('npm run parley -- users create --email')
    expect(await colleague.page.locator('input').count()).toBe(0)
    await screenshot(colleague.page, 'first-day-2-used-setup-link')
    await expectAccessible(colleague.page, 'the used setup link')

    // The console: a chatbot.
    await page.locator('[data-nav=console]').click()
    await page.locator('.console input[name=name]').fill('Northwind')
    await page.getByRole('button', { name: 'Create' }).click()
    const botLink = page.locator('table.chatbots a', { hasText: 'Northwind' })
    await expectInViewport(botLink, 'the new chatbot in the list')
    await expectAccessible(page, "the console's chatbots")
    const chatbotId = (await page.locator('table.chatbots tr', { hasText: 'Northwind' }).getAttribute('data-chatbot')) as string
    await botLink.click()

    // Its flow, written in the editor and published.
    await page.locator('nav.tabs').getByRole('link', { name: 'Flows' }).click()
    await page.locator('input[name=flow_name]').fill('Support')
    await page.getByRole('button', { name: 'Create' }).click()
    // A new flow opens on the builder's canvas; the definition is pasted in its JSON view.
    await page.locator('[data-builder][data-ready]').waitFor()
    await page.locator('[data-tab=json]').click()
    const editor = page.locator('.editor-host .cm-content')
    await editor.waitFor()
    await waitUntil(async () => (await page.locator('[data-save-state]').textContent()) === 'saved', 'the starter flow loaded')
    await editor.click()
    await page.keyboard.press('Control+a')
    await page.keyboard.press('Delete')
    await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify(SUPPORT_FLOW, null, 2))
    await page.keyboard.press('Control+v')
    await waitUntil(async () => (await page.locator('[data-save-state]').textContent()) === 'saved', 'the flow saved')
    await page.locator('[data-tab=canvas]').click()
    await page.locator('[data-canvas] [data-state=human]').waitFor()
    await page.getByRole('button', { name: 'Publish' }).click()
    await expectInViewport(page.getByRole('status').filter({ hasText: 'version 1' }), 'the flow published')
    await screenshot(page, 'first-day-3-flow-published')
    await expectAccessible(page, 'the flow builder')

    // Its widget: added, named, a star rating at the end, saved; the snippet goes on the shop.
    await page.locator('nav.tabs').getByRole('link', { name: 'Widget' }).click()
    await page.getByRole('button', { name: 'Add a web widget' }).click()
    await page.locator('#field-bot_display_name').fill('Northwind')
    await page.locator('#field-rating').selectOption('stars')
    await page.getByRole('button', { name: 'Save' }).click()
    await expectInViewport(page.locator('.widget-form [role=status]'), 'the widget saved')
    const snippet = ((await page.locator('[data-embed-snippet]').textContent()) ?? '').trim()
    expect(snippet).toContain('data-widget-key="wk_')
    // The preview is the real widget: the admin tries the published flow in it (a real conversation, still with the bot).
    const previewFrame = page.locator('iframe.preview-frame')
    const preview = page.frameLocator('iframe.preview-frame')
    await previewFrame.scrollIntoViewIfNeeded()
    await expectInViewport(previewFrame, 'the preview')
    await preview.locator('#parley-widget .launcher').click()
    await preview.getByText('Hi! I am the Northwind assistant.').waitFor()
    await preview.locator('#parley-widget button.choice', { hasText: 'Where is my order?' }).click()
    await preview.getByText('Orders ship within two days.').waitFor()
    await expectInViewport(preview.locator('#parley-widget .log .msg').last(), "the flow's answer in the preview")
    await screenshot(page, 'first-day-4-widget-builder')
    await expectAccessible(page, 'the widget builder and its preview')
    day.host.page('/shop', `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Northwind</title></head><body><h1>Northwind Outfitters</h1>${snippet}</body></html>`)

    // A visitor on a phone asks for a person.
    const visitor = await day.visitorAt(day.host.url('shop.test', '/shop'), 'phone')
    await visitor.openChat()
    await visitor.shownText('Hi! I am the Northwind assistant.')
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Talk to a person' }).click()
    await visitor.shownText('A person from our team will answer here.')
    const lastInWidget = visitor.page.locator('#parley-widget .log .msg').last()
    await expectInViewport(lastInWidget, "the visitor sees the handoff's line")
    await expectAccessible(visitor.page, 'the open widget on a phone')

    // The admin's desk: waiting, counted in the tab title; answered, the wait ends and the conversation is hers.
    await page.locator('.console-nav [data-nav=desk]').click()
    // Two conversations now (the preview's, with the bot, and the visitor's); one waits for a person.
    expect((await parley.must('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations`)).items).toHaveLength(2)
    const waiting = (await parley.must('GET', `/api/dev/v1/desk/conversations?view=waiting&chatbot_id=${chatbotId}`)).items
    expect(waiting).toHaveLength(1)
    const conversationId = waiting[0].id as string
    const row = page.locator(`.list .row[data-conversation="${conversationId}"]`)
    await expectInViewport(row, 'the waiting visitor in the list')
    await waitUntil(async () => ((await row.locator('.wait').textContent()) ?? '').startsWith('waiting'), 'the wait shown')
    await waitUntil(async () => (await page.title()) === '(1) Parley desk', 'the tab title counts the waiting visitor', { seen: () => page.title() })
    await expectAccessible(page, "the desk's Waiting view")
    await row.click()
    await page.locator('#composer').fill('Hi, I am Ada. Which order is it about?')
    await page.locator('#composer').press('Enter')
    await visitor.shownText('Hi, I am Ada. Which order is it about?', 'agent')
    await expectInViewport(lastInWidget, "the visitor sees Ada's answer")
    await waitUntil(async () => (await page.locator('.list .row').count()) === 0, 'nobody waits any more')
    await waitUntil(async () => (await page.title()) === 'Parley desk', 'nothing counted in the title', { seen: () => page.title() })
    // The reply made it Ada's (the assignment follows the reply's own entries on the feed).
    const assignee = () => page.getByRole('combobox', { name: 'Assigned to' }).locator('option:checked').textContent()
    await waitUntil(async () => (await assignee()) === 'Ada (me)', 'assigned to Ada by her reply', { seen: assignee })
    await visitor.sendText('Order 1042, it has not arrived.')
    await expectInViewport(row, 'the visitor waiting again after writing')
    await page.locator('#composer').fill('It left our warehouse today; you will have it on Friday.')
    await page.locator('#composer').press('Enter')
    await visitor.shownText('It left our warehouse today; you will have it on Friday.', 'agent')
    await expectAccessible(page, 'a conversation on the desk')

    // Closed: the visitor sees the end and the stars, in view, and rates.
    await page.locator('[data-action=close]').click()
    const widget = visitor.page.locator('#parley-widget')
    await expectInViewport(widget.locator('.ended').last(), 'the "Conversation ended" line')
    const rating = widget.locator('.rating')
    await expectInViewport(rating, 'the rating stars')
    await rating.getByRole('button', { name: '4 of 5' }).click()
    await rating.locator('textarea').fill('Quick and kind, thanks Ada.')
    await screenshot(visitor.page, 'first-day-5-visitor-rates')
    await expectAccessible(visitor.page, 'the rating in the widget')
    await rating.getByRole('button', { name: 'Send rating' }).click()
    await expectInViewport(rating.getByRole('status'), 'the thanks for the rating')

    // The team sees it: on the timeline and the conversation's header, in the context panel, as a filter.
    const rated = page.locator('.messages .message.event.rated')
    await expectInViewport(rated, 'the rating on the timeline')
    expect(await rated.textContent()).toContain('The visitor rated it ★★★★☆ 4/5: “Quick and kind, thanks Ada.”')
    await expectInViewport(page.locator('.conversation-head [data-rating]'), 'the rating in the header')
    await page.locator('.context-toggle').click()
    await expectInViewport(page.locator('.context [data-field=rating]'), 'the rating in the context panel')
    expect(await page.locator('.context [data-field=rating]').textContent()).toContain('★★★★☆ 4/5')
    expect(await page.locator('.context .user-agent').textContent()).toMatch(/^Chrome \d+ \(headless\) on Linux$/)
    await screenshot(page, 'first-day-6-desk-sees-rating')
    await expectAccessible(page, "the desk's context panel")
    await page.getByRole('combobox', { name: 'Rating' }).selectOption('good')
    await page.locator('.view[data-view=closed]').click()
    await expectInViewport(page.locator(`.list .row[data-conversation="${conversationId}"] .row-rating`), 'the rated conversation under "Rated good"')
    await page.getByRole('combobox', { name: 'Rating' }).selectOption('bad')
    await waitUntil(async () => (await page.locator('.list .row').count()) === 0, 'nothing rated bad')

    // The console's overview: satisfaction over 30 days.
    await page.locator('[data-nav=console]').click()
    await page.locator('table.chatbots a', { hasText: 'Northwind' }).click()
    await expectInViewport(page.locator('[data-csat-value]'), 'the CSAT on the overview')
    await waitUntil(async () => (await page.locator('[data-csat-value]').textContent()) === '100% CSAT', 'CSAT counted', { seen: () => page.locator('[data-csat-value]').textContent() })
    expect(await page.locator('[data-ratings]').textContent()).toContain('1 good, 0 neutral, 0 bad of 1 rating')
    await screenshot(page, 'first-day-7-console-csat')
    await expectAccessible(page, "the chatbot's overview")
    expect(admin.console.filter((line) => line.startsWith('pageerror'))).toEqual([])
    expect(visitor.pageErrors()).toEqual([])
  }, JOURNEY_TIMEOUT)
})
