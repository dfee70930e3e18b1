import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import type { DeskPage } from '../e2e/support/desk-page.ts'
import type { WidgetPage } from '../e2e/support/widget-page.ts'
import { expectAccessible, expectInViewport, journey, JOURNEY_TIMEOUT, screenshot, waitUntil } from './support/journey.ts'

/** Every visitor is handed to a person at their first message. */
const HANDOFF_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: { say: [{ text: 'Hello! What can we do for you?' }], on: [{ to: 'human' }] },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
  },
}

/** A real picture, drawn by Chromium: what a person would send (a label, a photo of a parcel). */
async function picture(page: Page, text: string, colour: string): Promise<Buffer> {
  const sketch = await page.context().newPage()
  await sketch.setContent(`<div id="p" style="width:240px;height:140px;display:grid;place-items:center;background:${colour};color:#fff;font:600 22px system-ui">${text}</div>`)
  const png = await sketch.locator('#p').screenshot({ type: 'png' })
  await sketch.close()
  return png
}

/** The pictures drawn in the page or the widget's shadow root that loaded. */
const loadedPictures = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const root = document.querySelector('#parley-widget')?.shadowRoot
    const images = [...document.querySelectorAll<HTMLImageElement>(selector), ...(root ? [...root.querySelectorAll<HTMLImageElement>(selector)] : [])]
    return images.filter((image) => image.complete && image.naturalWidth > 0).length
  }, selector)

/**
 * Two agents' day on the desk, in Chromium against the compiled binary: visitors on a laptop
 * and a phone are handed over; a reply assigns a conversation to whoever answered and takes it
 * out of Waiting for both agents (the tab titles and the view's count follow); a visitor who
 * writes again waits again, counted from that message; a note reaches the colleague and never
 * the visitor; files go both ways; closed conversations are rated, and a bad rating is found;
 * an agent who chooses Spanish sees her desk in Spanish, after a reload too.
 */
describe('journey: two agents on the desk', () => {
  const day = journey()

  test('assignment by reply, waiting counts, notes, files both ways, close and ratings', async () => {
    const { parley } = day
    const sam = await parley.person('Sam', 'agent')
    const lee = await parley.person('Lee', 'agent')
    const { widgetKey } = await parley.webChat(HANDOFF_FLOW, 'Shop', { widget_config: { rating: 'stars', bot_display_name: 'Shop' } })

    const samDesk = await day.desk(sam, 'desktop')
    const leeDesk = await day.desk(lee, 'desktop')
    const laptop = await day.visitor(widgetKey, 'desktop', '/shop')
    const phone = await day.visitor(widgetKey, 'phone', '/shop')
    const handOver = async (visitor: WidgetPage, text: string) => {
      await visitor.openChat()
      await visitor.shownText('Hello! What can we do for you?')
      await visitor.sendText(text)
      await visitor.shownText('A person will answer you here shortly.')
    }
    await handOver(laptop, 'My order 1042 has not arrived.')
    await handOver(phone, 'Can I swap my jacket for a size M?')
    const conversations = (await parley.must('GET', '/api/dev/v1/desk/conversations?view=waiting')).items as { id: string; contact: { id: string } }[]
    expect(conversations).toHaveLength(2)
    const [order, swap] = conversations.map((item) => item.id) as [string, string]

    /** What one agent's desk shows: the rows of Waiting, the count on its tab, the tab title. */
    const waitingOn = async (desk: DeskPage, ids: string[], title: string) => {
      if ((await desk.page.locator('.view[data-view=waiting][aria-selected=true]').count()) === 0) await desk.view('waiting')
      await desk.rowsWhen((rows) => JSON.stringify(rows.map((row) => row.id)) === JSON.stringify(ids), `Waiting shows ${ids.length}`)
      for (const id of ids) await expectInViewport(desk.page.locator(`.list .row[data-conversation="${id}"] .wait`), 'a waiting row with its wait')
      const count = () => desk.page.evaluate(() => document.querySelector('.view[data-view=waiting] .count')?.textContent ?? '')
      await waitUntil(async () => (await count()) === (ids.length ? String(ids.length) : ''), `the Waiting tab counts ${ids.length}`, { seen: count })
      await waitUntil(async () => (await desk.page.title()) === title, `the title is ${title}`, { seen: () => desk.page.title() })
    }
    await waitingOn(samDesk, [order, swap], '(2) Parley desk')
    await waitingOn(leeDesk, [order, swap], '(2) Parley desk')
    await screenshot(samDesk.page, 'agent-day-1-two-waiting')

    // Sam answers the order: it is his, and nobody waits for it any more, on either desk.
    await samDesk.openConversation(order)
    await samDesk.reply('Hi, Sam here. Let me check order 1042 with the courier.')
    await laptop.shownText('Hi, Sam here. Let me check order 1042 with the courier.', 'agent')
    await expectInViewport(laptop.page.locator('#parley-widget .log .msg').last(), "Sam's answer in the visitor's widget")
    await expectAccessible(laptop.page, 'the open widget on a laptop')
    await waitingOn(leeDesk, [swap], '(1) Parley desk')
    await waitingOn(samDesk, [swap], '(1) Parley desk')
    await samDesk.messagesWhen((shown) => shown.some((message) => message.text.startsWith('Assigned to Sam by Sam')), 'the assignment by reply on the timeline')

    // Lee leaves Sam a private note on the order (under All open now); Sam sees it live, the visitor never does.
    await leeDesk.view('open')
    await leeDesk.openConversation(order)
    await leeDesk.page.locator('[data-mode="note"]').click()
    await leeDesk.reply('The courier says it was left with a neighbour at number 12.')
    await samDesk.messagesWhen((shown) => shown.some((message) => message.role === 'note' && message.author === 'Lee'), "Lee's note on Sam's desk")
    await expectInViewport(samDesk.page.locator('.messages .message.note').last(), "the note in Sam's view")
    await expectAccessible(leeDesk.page, 'the composer writing a note')
    await leeDesk.page.getByRole('tab', { name: 'Reply' }).click()

    // Lee answers the phone visitor: now no one waits, and the titles say so.
    await leeDesk.view('waiting')
    await leeDesk.openConversation(swap)
    await leeDesk.reply('Hi, Lee here. Size M is in stock: I can swap it today.')
    await phone.shownText('Hi, Lee here. Size M is in stock: I can swap it today.', 'agent')
    await expectInViewport(phone.page.locator('#parley-widget .log .msg').last(), "Lee's answer on the phone")
    await waitingOn(samDesk, [], 'Parley desk')
    await waitingOn(leeDesk, [], 'Parley desk')
    expect((await parley.must('GET', `/api/dev/v1/desk/conversations/${swap}`)).assignee.display_name).toBe('Lee')

    // The laptop visitor writes again: waiting again (still Sam's), from this message, on both desks.
    await laptop.sendText('Number 12? I will ask them, thanks. Could you send me the label?')
    await waitingOn(leeDesk, [order], '(1) Parley desk')
    const again = await parley.must('GET', `/api/dev/v1/desk/conversations/${order}`)
    expect(again).toMatchObject({ assignee: { display_name: 'Sam' }, last_message: { role: 'visitor' } })
    expect(again.waiting_since).toBe(again.last_message.created_at)
    // The list says who wrote last.
    await samDesk.rowsWhen((rows) => rows[0]?.preview === 'Visitor: Number 12? I will ask them, thanks. Could you send me the label?', 'the last line with its sender')

    // Files both ways: Sam sends the label; the phone visitor sends a photo to Lee.
    await samDesk.page.locator('[data-testid="attach-input"]').setInputFiles({ name: 'label-1042.png', mimeType: 'image/png', buffer: await picture(samDesk.page, 'Label #1042', '#0057d9') })
    await waitUntil(async () => (await loadedPictures(laptop.page, '.msg.agent img')) === 1, 'the label in the widget')
    await expectInViewport(laptop.page.locator('#parley-widget .msg.agent img').last(), 'the label, in view in the widget')
    await waitingOn(leeDesk, [], 'Parley desk')
    await phone.page.locator('#parley-widget input[type=file]').setInputFiles({ name: 'jacket.png', mimeType: 'image/png', buffer: await picture(phone.page, 'Jacket, size L', '#b54708') })
    await waitUntil(async () => (await loadedPictures(leeDesk.page, '.message.visitor img')) === 1, "the photo on Lee's desk")
    await expectInViewport(leeDesk.page.locator('.messages .message.visitor img').last(), 'the photo, in view on the desk')
    await screenshot(leeDesk.page, 'agent-day-2-photo-on-the-desk')
    await screenshot(laptop.page, 'agent-day-3-label-in-the-widget')
    await expectAccessible(leeDesk.page, 'a photo on the desk')
    await expectAccessible(laptop.page, 'a picture in the widget')
    await leeDesk.reply('Thanks! I will send the size M today.')
    await phone.shownText('Thanks! I will send the size M today.', 'agent')

    // Both close; both visitors rate; a bad rating is found by the filter.
    await samDesk.page.locator('[data-action=close]').click()
    await leeDesk.page.locator('[data-action=close]').click()
    for (const [visitor, stars, comment] of [
      [laptop, '5 of 5', 'Sam found my parcel!'],
      [phone, '2 of 5', 'Too slow to answer.'],
    ] as const) {
      const rating = visitor.page.locator('#parley-widget .rating')
      await expectInViewport(rating, 'the rating')
      await rating.getByRole('button', { name: stars }).click()
      await rating.locator('textarea').fill(comment)
      await rating.getByRole('button', { name: 'Send rating' }).click()
      await expectInViewport(rating.getByRole('status'), 'the thanks')
    }
    await screenshot(phone.page, 'agent-day-4-phone-rated')
    await expectAccessible(phone.page, 'the thanks for a rating')
    await samDesk.view('closed')
    // Who wrote last, as Sam reads it: his own reply is You, Lee's is Lee's.
    const lastLines = (rows: { id: string; preview: string }[]) => rows.filter((row) => row.id === order || row.id === swap).map((row) => row.preview.split(':')[0])
    await samDesk.rowsWhen((rows) => JSON.stringify(lastLines(rows).sort()) === '["Lee","You"]', 'the last senders: You and Lee')
    await expectInViewport(samDesk.page.locator(`.list .row[data-conversation="${swap}"] .row-sender`), "Lee's name before the last line")
    await samDesk.page.getByRole('combobox', { name: 'Rating' }).selectOption('bad')
    await samDesk.rowsWhen((rows) => rows.length === 1 && rows[0]!.id === swap, 'the bad rating found')
    await expectInViewport(samDesk.page.locator(`.list .row[data-conversation="${swap}"] .row-rating`), 'the bad rating on its row')
    await samDesk.openConversation(swap)
    await expectInViewport(samDesk.page.locator('.messages .message.event.rated'), 'the rating on the timeline')
    expect(await samDesk.page.locator('.messages .message.event.rated').textContent()).toContain('★★☆☆☆ 2/5: “Too slow to answer.”')
    await screenshot(samDesk.page, 'agent-day-5-bad-rating-found')
    await expectAccessible(samDesk.page, 'the Closed view filtered by rating')

    // Lee reads Spanish better: she picks it in the top bar. Her desk speaks it at once, without
    // a reload, and again after one (it is kept on her user); Sam's desk stays in English.
    await leeDesk.page.getByRole('combobox', { name: 'Language' }).selectOption('es')
    const leeWaiting = leeDesk.page.locator('.view[data-view=waiting]')
    await leeWaiting.filter({ hasText: 'En espera' }).waitFor()
    expect(await leeDesk.page.evaluate(() => document.documentElement.lang)).toBe('es')
    await leeDesk.page.reload()
    await leeWaiting.filter({ hasText: 'En espera' }).waitFor()
    expect(await leeDesk.page.evaluate(() => document.documentElement.lang)).toBe('es')
    await leeDesk.view('closed')
    await leeDesk.openConversation(swap)
    await expectInViewport(leeDesk.page.getByRole('tab', { name: 'Responder' }), 'the reply tab in Spanish')
    await expectInViewport(leeDesk.page.locator('.conversation-head .status', { hasText: 'cerrada' }), 'the status in Spanish')
    await expectInViewport(leeDesk.page.locator('.messages .message.event', { hasText: 'Lee la cerró' }), 'the closing, told in Spanish')
    expect(await leeDesk.page.locator('#composer').getAttribute('placeholder')).toBe('Cerrada; una respuesta llega al visitante y te pasa la conversación')
    await screenshot(leeDesk.page, 'agent-day-6-desk-in-spanish')
    await expectAccessible(leeDesk.page, 'the desk in Spanish')
    await expectInViewport(samDesk.page.locator('.view[data-view=waiting]', { hasText: 'Waiting' }), "Sam's desk, still in English")
    expect(await samDesk.page.evaluate(() => document.documentElement.lang)).toMatch(/^en/)
    for (const page of [samDesk, leeDesk]) expect(page.pageErrors()).toEqual([])
    for (const visitor of [laptop, phone]) expect(visitor.pageErrors()).toEqual([])
  }, JOURNEY_TIMEOUT)
})
