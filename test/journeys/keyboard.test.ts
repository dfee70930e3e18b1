import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { expectAccessible, expectInViewport, journey, JOURNEY_TIMEOUT, screenshot, waitUntil } from './support/journey.ts'
import { expectVisibleFocus, hasFocus, tabTo } from './support/keyboard.ts'
import { announced, recordLiveAdditions, recordLiveAdditionsOnLoad } from './support/live-regions.ts'

/** Buttons, then a list, then a person: every kind of answer a visitor gives with the keyboard. */
const SHOP_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: {
      say: [{ text: 'Hi! What is it about?', buttons: [{ id: 'order', title: 'My order' }, { id: 'other', title: 'Something else' }] }],
      on: [{ to: 'size' }],
    },
    size: {
      say: [{ text: 'Which size did you order?', button: 'Sizes', sections: [{ title: 'Jackets', rows: [{ id: 'm', title: 'Medium' }, { id: 'l', title: 'Large' }] }] }],
      on: [{ to: 'human' }],
    },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
  },
}

/** A real picture, drawn by Chromium: the photo the visitor sends. */
async function picture(page: Page): Promise<Buffer> {
  const sketch = await page.context().newPage()
  await sketch.setContent('<div id="p" style="width:200px;height:120px;display:grid;place-items:center;background:#b54708;color:#fff;font:600 20px system-ui">Jacket, size L</div>')
  const png = await sketch.locator('#p').screenshot({ type: 'png' })
  await sketch.close()
  return png
}

/**
 * The keyboard only, in Chromium against the compiled binary: a visitor opens the chat,
 * answers buttons and a list, sends a file, rates and closes the chat; an agent signs in,
 * triages, reads the shortcuts, replies, adds a note, assigns and closes. At every Tab stop
 * the focus must be visible. New messages are read out by the logs' live regions; history
 * drawn again is not.
 */
describe('journey: keyboard only, a visitor and an agent', () => {
  const day = journey()

  test('a visitor answers buttons and a list, sends a file, rates, closes; an agent triages, replies, notes, assigns, closes', async () => {
    const { parley } = day
    const sam = await parley.person('Sam', 'agent')
    await parley.person('Lee', 'agent')
    const { widgetKey } = await parley.webChat(SHOP_FLOW, 'Shop', { widget_config: { rating: 'stars', bot_display_name: 'Shop' } })

    // The visitor tabs from the shop's page to the launcher and opens the chat with Enter: the keyboard lands in the text box.
    const visitor = await day.visitor(widgetKey, 'desktop', '/shop')
    const vpage = visitor.page
    await recordLiveAdditionsOnLoad(vpage)
    // Playwright takes file choosers over only once someone listens: listening from the start, a quick
    // Enter cannot open the browser's own (which headless Chromium cancels) before it does.
    vpage.on('filechooser', () => {})
    await visitor.launcher.waitFor()
    await tabTo(vpage, 'button.launcher', 'the launcher')
    await screenshot(vpage, 'keyboard-1-launcher-focused')
    await vpage.keyboard.press('Enter')
    await visitor.shownText('Hi! What is it about?')
    await waitUntil(() => hasFocus(vpage, 'textarea'), 'the text box focused on opening')
    await expectVisibleFocus(vpage, 'the text box')
    // Buttons: back from the text box to "My order", Enter.
    await tabTo(vpage, 'button.choice', 'the "My order" button', { backwards: true, text: 'My order' })
    await screenshot(vpage, 'keyboard-2-answer-button-focused')
    await vpage.keyboard.press('Enter')
    // A list: its button opens the rows, Tab reaches "Large", Space answers.
    await visitor.shownText('Which size did you order?')
    await tabTo(vpage, 'button.choice[aria-expanded]', 'the list button', { backwards: true })
    await vpage.keyboard.press('Enter')
    await tabTo(vpage, 'button.row', 'the "Large" row', { text: 'Large' })
    await screenshot(vpage, 'keyboard-3-list-row-focused')
    await vpage.keyboard.press('Space')
    await visitor.shownText('A person will answer you here shortly.')
    await expectAccessible(vpage, 'the widget after a keyboard-only start')

    // The agent signs in with the keyboard (the sign-in page, checked by axe, puts the focus on the e-mail field).
    const agent = await day.actor('desktop')
    const desk = agent.page
    await desk.goto(`${parley.url}/app`)
    await desk.locator('input[name=email]').waitFor()
    await expectAccessible(desk, 'the sign-in page')
    expect(await hasFocus(desk, 'input[name=email]')).toBe(true)
    await expectVisibleFocus(desk, 'the e-mail field')
    await desk.keyboard.type(sam.email)
    await tabTo(desk, 'input[name=password]', 'the password field')
    await desk.keyboard.type(sam.password)
    await desk.keyboard.press('Enter')
    await desk.locator('.desk').waitFor()

    // The shortcuts' list: a dialog that takes the focus, keeps it, closes with Escape and gives it back.
    await desk.locator('.list[data-view=waiting][aria-busy=false] .row').first().waitFor()
    await desk.keyboard.press('?')
    const help = desk.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expectInViewport(help, 'the shortcuts dialog')
    await waitUntil(() => hasFocus(desk, '.overlay button'), 'the focus in the dialog')
    await screenshot(desk, 'keyboard-4-desk-shortcuts-dialog')
    for (let press = 0; press < 3; press++) {
      await desk.keyboard.press('Tab')
      expect(await hasFocus(desk, '.overlay *')).toBe(true)
    }
    await desk.keyboard.press('Escape')
    await help.waitFor({ state: 'detached' })

    // Triage: the views are one Tab stop; arrows move between them and show each; j opens the first waiting conversation.
    await tabTo(desk, '.view[aria-selected=true]', 'the selected view')
    await desk.keyboard.press('ArrowDown')
    await waitUntil(() => hasFocus(desk, '.view[data-view=mine][aria-selected=true]'), '"Mine" picked with an arrow')
    await expectVisibleFocus(desk, 'the "Mine" view')
    await screenshot(desk, 'keyboard-5-desk-view-focused')
    await desk.keyboard.press('ArrowUp')
    await desk.locator('.list[data-view=waiting][aria-busy=false] .row').first().waitFor()
    await recordLiveAdditions(desk)
    await desk.keyboard.press('j')
    await desk.locator('.conversation .messages .message').first().waitFor()
    await waitUntil(async () => (await desk.locator('.messages .message', { hasText: 'A person will answer you here shortly.' }).count()) === 1, 'the history on the desk')

    // The visitor reloads the page, the chat still open: the history is drawn again, and not read out again.
    await vpage.reload()
    await visitor.shownText('A person will answer you here shortly.')

    // Reply: r, type, Enter.
    await desk.keyboard.press('r')
    await expectVisibleFocus(desk, 'the reply box')
    await desk.keyboard.type('Hi, Sam here. Which colour is the jacket?')
    await screenshot(desk, 'keyboard-6-desk-reply-box')
    await desk.keyboard.press('Enter')
    await visitor.shownText('Hi, Sam here. Which colour is the jacket?', 'agent')

    // A note: back to the modes (one Tab stop), the arrow picks "Private note", Tab into the box, type, Enter; then back to replies.
    await tabTo(desk, '.modes [aria-selected=true]', 'the chosen mode', { backwards: true })
    await desk.keyboard.press('ArrowRight')
    await waitUntil(() => hasFocus(desk, '[data-mode=note][aria-selected=true]'), '"Private note" picked with an arrow')
    await tabTo(desk, '#composer', 'the note box', { most: 1 })
    await desk.keyboard.type('Check the stock of size L before swapping.')
    await desk.keyboard.press('Enter')
    await desk.locator('.messages .message.note', { hasText: 'Check the stock of size L' }).waitFor()
    await tabTo(desk, '.modes [aria-selected=true]', 'the chosen mode', { backwards: true, most: 1 })
    await desk.keyboard.press('ArrowLeft')
    await waitUntil(() => hasFocus(desk, '#mode-reply[aria-selected=true]'), '"Reply" picked with an arrow')

    // The visitor sends a photo: Tab to the paperclip, Enter opens the file chooser.
    await tabTo(vpage, 'button.attach', 'the paperclip', { backwards: true })
    const [chooser] = await Promise.all([vpage.waitForEvent('filechooser'), vpage.keyboard.press('Enter')])
    await chooser.setFiles({ name: 'jacket.png', mimeType: 'image/png', buffer: await picture(vpage) })
    await desk.locator('.messages .message.visitor img').waitFor()
    await expectInViewport(desk.locator('.messages .message.visitor img').last(), 'the photo on the desk')

    // Live regions: the desk read out the photo that came, not the history drawn when the conversation opened.
    const deskLog = desk.locator('ol.messages')
    expect(await deskLog.getAttribute('aria-live')).toBe('polite')
    expect(await announced(desk, 'Hi! What is it about?')).toMatchObject({ spoken: 0 })
    expect((await announced(desk, 'Hi! What is it about?')).silent).toBeGreaterThan(0)
    expect((await announced(desk, { pictures: true })).spoken).toBeGreaterThan(0)
    // The widget read out Sam's answer, not the history it drew again after the reload.
    expect(await announced(vpage, 'Hi, Sam here.')).toMatchObject({ spoken: 1 })
    expect(await announced(vpage, 'Hi! What is it about?')).toMatchObject({ spoken: 0 })

    // Assign to Lee: Shift+Tab to "Assigned to", type the name.
    await tabTo(desk, 'select[aria-label="Assigned to"]', 'the assignee', { backwards: true, most: 40 })
    await desk.keyboard.type('Lee')
    await waitUntil(async () => (await parley.must('GET', '/api/dev/v1/desk/conversations?view=open')).items[0]?.assignee?.display_name === 'Lee', 'assigned to Lee')

    // Close: Tab to Close, Enter.
    await tabTo(desk, '[data-action=close]', 'the Close button')
    await screenshot(desk, 'keyboard-7-desk-close-focused')
    await desk.keyboard.press('Enter')
    await expectAccessible(desk, 'the closed conversation')

    // The visitor rates with the keyboard and closes the chat with Escape: the focus goes back to the launcher.
    const rating = vpage.locator('#parley-widget .rating')
    await expectInViewport(rating, 'the rating')
    await tabTo(vpage, 'button[aria-label="4 of 5"]', 'four stars', { backwards: true })
    await vpage.keyboard.press('Enter')
    await tabTo(vpage, '.rating textarea', 'the comment')
    await vpage.keyboard.type('Quick, thanks Sam.')
    await tabTo(vpage, '.rating button:not([aria-label])', 'Send rating')
    await screenshot(vpage, 'keyboard-8-send-rating-focused')
    await vpage.keyboard.press('Enter')
    await expectInViewport(rating.getByRole('status'), 'the thanks')
    await expectAccessible(vpage, 'the widget after a keyboard-only rating')
    await vpage.keyboard.press('Escape')
    await visitor.window.waitFor({ state: 'hidden' })
    await waitUntil(() => hasFocus(vpage, 'button.launcher'), 'the focus back on the launcher')
    await expectVisibleFocus(vpage, 'the launcher after closing')

    const stored = (await parley.must('GET', '/api/dev/v1/desk/conversations?view=closed')).items[0]
    expect(stored).toMatchObject({ status: 'closed', assignee: { display_name: 'Lee' }, rating: { score: 4 } })
    expect(agent.console.filter((line) => line.startsWith('pageerror'))).toEqual([])
    expect(visitor.pageErrors()).toEqual([])
  }, JOURNEY_TIMEOUT)
})
