import { describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { deskSuite } from './support/desk-suite.ts'
import { HANDOFF_FLOW } from './support/desk-bed.ts'
import { embedPage } from './support/host-pages.ts'
import { WidgetPage } from './support/widget-page.ts'
import { axeViolations } from '../journeys/support/accessible.ts'
import { waitUntil } from './support/widget-page.ts'

describe('the desk: context, saved replies, search, alerts (Chromium, compiled binary)', () => {
  const suite = deskSuite()

  test("the context panel shows the chatbot, the page the widget was on, the visitor's language and where the flow was at the handoff (branched by that language)", async () => {
    // The flow hands a Portuguese-speaking visitor to its own state: contact.language from the browser (issue 31).
    const byLanguage: ConversationFlow = {
      version: 1,
      start: 'welcome',
      states: {
        welcome: { say: [{ text: 'Hello! What can we do for you?' }], on: [{ to: 'route' }] },
        route: { branch: [{ contact: 'language', equals: 'pt', to: 'human_pt' }, { to: 'human' }] },
        human_pt: { handoff: { text: 'A person will answer you here shortly.' } },
        human: { handoff: { text: 'A person will answer you here shortly.' } },
      },
    }
    const { conversationId } = await suite.visitorSays('Context please', byLanguage, { locale: 'pt-BR' })
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}`)
    await ada.page.getByRole('button', { name: 'Context' }).click()
    const panel = ada.page.locator('aside.context')
    await panel.locator('[data-field="state"]').waitFor()
    expect(await panel.locator('[data-field="state"]').textContent()).toBe('human_pt')
    expect(await panel.locator('[data-field="language"]').textContent()).toBe('Brazilian Portuguese · pt-BR')
    expect(await panel.textContent()).toContain('Shop bot')
    expect(await panel.locator('[data-field="identity"]').textContent()).toBe('anonymous visitor')
    await waitUntil(async () => (await panel.locator('.page-url').count()) === 1, 'the page is shown')
    expect(await panel.locator('.page-url').textContent()).toContain('http://shop.test:')
    expect(await panel.locator('.visitor-address').textContent()).toBe('127.0.0.1')
    // The browser in words (the raw header on hover), as a person would say it.
    expect(await panel.locator('.user-agent').textContent()).toMatch(/^Chrome \d+ \(headless\) on Linux$/)
    expect(await panel.locator('.user-agent').getAttribute('title')).toContain('HeadlessChrome/')
    await ada.page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/desk-context-address.png` })
  }, E2E_TIMEOUT)

  test('typing / offers the saved replies; Enter inserts the chosen one, which is then sent', async () => {
    await suite.bed.must('POST', '/api/dev/v1/desk/saved-replies', { shortcut: 'refund', text: 'Refunds take 5 working days.' })
    await suite.bed.must('POST', '/api/dev/v1/desk/saved-replies', { shortcut: 'hours', text: 'We answer from 9 to 17.' })
    const { visitor, conversationId } = await suite.visitorSays('When do I get my money?')
    const sam = await suite.desk(suite.sam)
    await sam.goto(`/app/c/${conversationId}`)
    await sam.composer.click()
    await sam.composer.pressSequentially('/re')
    const offered = sam.page.getByRole('listbox', { name: 'Saved replies' })
    await offered.waitFor()
    expect(await offered.locator('li').allTextContents()).toEqual(['/refund Refunds take 5 working days.'])
    await sam.composer.press('Enter')
    expect(await sam.composer.inputValue()).toBe('Refunds take 5 working days.')
    await sam.composer.press('Enter')
    await visitor.shownText('Refunds take 5 working days.', 'agent')
  }, E2E_TIMEOUT)

  test('search finds a conversation by what the visitor wrote; the chatbot filter narrows the list', async () => {
    const wanted = await suite.visitorSays('My zebra-striped umbrella never arrived')
    const other = await suite.visitorSays('Something else entirely')
    const ada = await suite.desk(suite.ada)
    await ada.view('open')
    await ada.rowsWhen((rows) => rows.some((row) => row.id === wanted.conversationId) && rows.some((row) => row.id === other.conversationId), 'both listed')
    await ada.page.locator('#desk-search').fill('umbrella')
    const found = await ada.rowsWhen((rows) => rows.length === 1, 'one row found')
    expect(found[0]!.id).toBe(wanted.conversationId)
    expect(new URL(ada.page.url()).searchParams.get('q')).toBe('umbrella')
    await ada.page.locator('#desk-search').fill('')
    await ada.page.getByRole('combobox', { name: 'Chatbot' }).selectOption(other.chatbotId)
    // The search's one row stays until the filtered list comes: wait for the list of that chatbot.
    await waitUntil(() => new URL(ada.page.url()).searchParams.get('bot') === other.chatbotId && !new URL(ada.page.url()).searchParams.get('q'), 'the filter is in the address')
    const narrowed = await ada.rowsWhen((rows) => rows.length === 1 && rows[0]!.id !== wanted.conversationId, 'the chatbot filter applied')
    expect(narrowed.map((row) => row.id)).toEqual([other.conversationId])
  }, E2E_TIMEOUT)

  test('labels: an admin sets one from the conversation and makes a new one there; the list shows them and filters by one; one is taken off', async () => {
    await suite.bed.must('POST', '/api/dev/v1/labels', { name: 'Billing', color: 'orange' })
    const labelled = await suite.visitorSays('A question about my invoice')
    const other = await suite.visitorSays('Nothing to label here')
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${labelled.conversationId}`)
    const bar = ada.page.locator('.conversation-labels')
    await bar.getByRole('combobox', { name: 'Add a label' }).selectOption({ label: 'Billing' })
    await bar.locator('[data-label="Billing"]').waitFor()
    await bar.getByRole('button', { name: 'New label' }).click()
    await bar.getByRole('textbox', { name: 'Label name' }).fill('VIP')
    await bar.getByRole('combobox', { name: 'Colour' }).selectOption({ label: 'Purple' })
    await bar.getByRole('button', { name: 'Create and add' }).click()
    await bar.locator('[data-label="VIP"]').waitFor()
    expect(await bar.locator('.label-chip').evaluateAll((chips) => chips.map((chip) => `${chip.firstChild?.textContent}:${chip.className}`))).toEqual([
      'Billing:label-chip label-orange',
      'VIP:label-chip label-purple',
    ])
    await ada.page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/desk-labels-conversation.png` })
    // The chips, their × and the menus pass WCAG 2.1 AA (contrast, names).
    expect(await axeViolations(ada.page)).toEqual([])
    // The list shows each row's labels, in view, and filters by one.
    await ada.view('open')
    const row = ada.page.locator(`.row[data-conversation="${labelled.conversationId}"]`)
    await waitUntil(async () => (await row.locator('.row-labels .label-chip').allTextContents()).join(',') === 'Billing,VIP', 'the row shows its labels')
    const box = await row.locator('.row-labels').boundingBox()
    const viewport = ada.page.viewportSize()
    expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width).toBe(true)
    await ada.rowsWhen((rows) => rows.some((shown) => shown.id === other.conversationId), 'the other conversation is listed')
    await ada.page.getByRole('combobox', { name: 'Label' }).selectOption({ label: 'VIP' })
    const filtered = await ada.rowsWhen((rows) => rows.length === 1, 'only the labelled conversation')
    expect(filtered[0]!.id).toBe(labelled.conversationId)
    await ada.page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/desk-labels-list.png` })
    // Taken off with its ×: the conversation's labels as stored.
    await bar.getByRole('button', { name: 'Remove the label Billing' }).click()
    await waitUntil(async () => (await bar.locator('.label-chip').count()) === 1, 'one label left')
    const stored = await suite.bed.must('GET', `/api/dev/v1/desk/conversations/${labelled.conversationId}/labels`)
    expect(stored.items.map((label: { name: string }) => label.name)).toEqual(['VIP'])
  }, E2E_TIMEOUT)

  test('an admin sets business hours in the console; outside them the handoff says the team is away and the widget takes an e-mail, which the desk then shows', async () => {
    const chat = await suite.bed.webChat(HANDOFF_FLOW)
    // The admin sets the hours in the console: open no day of the week, so whenever the test runs it is outside them.
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/console/bots/${chat.chatbotId}/hours`)
    const form = ada.page.locator('form.hours-form')
    await form.waitFor()
    await form.locator('input[name="timezone"]').fill('Europe/Berlin')
    for (const day of ['mon', 'tue', 'wed', 'thu', 'fri']) await form.locator(`[data-day="${day}"] input[type="checkbox"]`).uncheck()
    await form.locator('textarea[name="holidays"]').fill('2026-12-25')
    await form.locator('textarea[name="closed_text"]').fill('We are away until Monday 9:00. Leave your e-mail and we will write.')
    await form.getByRole('button', { name: 'Save hours' }).click()
    await form.locator('[data-open-now="closed"]').waitFor()
    expect(await form.locator('[data-open-now]').textContent()).toBe('Closed now.')
    await ada.page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/console-business-hours.png` })
    expect(await axeViolations(ada.page)).toEqual([])
    const stored = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/business-hours`)
    expect(stored.hours).toMatchObject({ timezone: 'Europe/Berlin', weekly: {}, holidays: [{ date: '2026-12-25' }] })
    suite.host.page(`/${chat.chatbotId}`, embedPage({ serverUrl: suite.bed.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser, { viewport: { width: 390, height: 844 } })
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', `/${chat.chatbotId}`))
    await visitor.openChat()
    await visitor.shownText('Hello! What can we do for you?')
    await visitor.sendText('Is anyone there?')
    const shown = await visitor.shownText('We are away until Monday 9:00. Leave your e-mail and we will write.')
    expect(shown.map((message) => message.text)).not.toContain('A person will answer you here shortly.')
    const ask = visitor.page.locator('#parley-widget .email-ask')
    await ask.waitFor({ state: 'visible' })
    const box = await ask.boundingBox()
    expect(box !== null && box.y >= 0 && box.y + box.height <= 844).toBe(true)
    await ask.getByRole('textbox', { name: 'Your e-mail' }).fill('grace@navy.mil')
    await visitor.page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/widget-email-ask.png` })
    expect(await axeViolations(visitor.page)).toEqual([])
    await ask.getByRole('button', { name: 'Send' }).click()
    await ask.getByText("Thanks, we'll write to grace@navy.mil.").waitFor()
    await visitor.page.screenshot({ path: `${process.env.PARLEY_SHOTS ?? '/tmp'}/widget-email-left.png` })
    // The team finds it waiting, with the address to answer by.
    const list = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations`)
    await ada.goto(`/app/c/${list.items[0].id}`)
    await ada.page.getByRole('button', { name: 'Context' }).click()
    await waitUntil(async () => ((await ada.page.locator('aside.context').textContent()) ?? '').includes('grace@navy.mil'), 'the e-mail is in the context')
  }, E2E_TIMEOUT)

  test('a new handoff while the tab is hidden raises a browser notification (asked on a click) and the unread count in the title', async () => {
    const ada = await suite.desk(suite.ada)
    await ada.watched.context.grantPermissions(['notifications'], { origin: suite.bed.url })
    // The page is told it is hidden, and notifications it shows are recorded.
    await ada.page.evaluate(() => {
      const shown: string[] = []
      Object.defineProperty(window, '__notifications', { value: shown })
      const Real = window.Notification
      class Recorded extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options)
          shown.push(title)
        }
      }
      Object.defineProperty(window, 'Notification', { value: Recorded })
      Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' })
    })
    await ada.page.locator('[data-action="alerts"]').click()
    await ada.page.locator('[data-action="alerts"]', { hasText: 'Notifications on' }).waitFor()
    const titleBefore = await ada.page.title()
    await suite.visitorSays('Is anyone there?')
    await waitUntil(async () => (await ada.page.evaluate(() => (window as unknown as { __notifications: string[] }).__notifications.length)) === 1, 'one notification')
    expect(await ada.page.evaluate(() => (window as unknown as { __notifications: string[] }).__notifications)).toEqual(['A visitor is waiting for a person'])
    await waitUntil(async () => (await ada.page.title()) !== titleBefore, 'the title counts it')
    expect(await ada.page.title()).toMatch(/^\(\d+\) Parley desk$/)
  }, E2E_TIMEOUT)

  test('the history shows what the bot offered as the visitor saw it: buttons, a list, pictures, video, sound, files', async () => {
    const media = 'https://cdn.shop.test/media'
    const flow: ConversationFlow = {
      version: 1,
      start: 'welcome',
      states: {
        welcome: {
          say: [
            { text: 'Hello! What can we do for you?', buttons: [{ id: 'a', title: 'Orders' }, { id: 'b', title: 'Returns' }] },
            { text: 'Or pick a size', button: 'Sizes', sections: [{ title: 'Jackets', rows: [{ id: 'm', title: 'Medium', description: 'Chest 96-101 cm' }] }] },
            { media: { type: 'image', url: `${media}/jacket.png`, caption: 'The trail jacket' } },
            { media: { type: 'video', url: `${media}/fit.mp4` } },
            { media: { type: 'audio', url: `${media}/care.mp3` } },
            { media: { type: 'file', url: `${media}/sizes.pdf`, filename: 'sizes.pdf' } },
          ],
          on: [{ to: 'human' }],
        },
        human: { handoff: { text: 'A person will answer you here shortly.' } },
      },
    }
    const { conversationId } = await suite.visitorSays('Show me', flow)
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}`)
    await ada.messagesWhen((shown) => shown.some((message) => message.text === 'Show me'), 'the history')
    const bubbles = ada.page.locator('.conversation .messages')
    expect(await bubbles.locator('.choice').allTextContents()).toEqual(['Orders', 'Returns'])
    expect(await bubbles.locator('.list-content summary').textContent()).toBe('Sizes')
    expect(await bubbles.locator('.list-content li').first().textContent()).toBe('Medium — Chest 96-101 cm')
    expect(await bubbles.locator('img').getAttribute('src')).toBe(`${media}/jacket.png`)
    expect(await bubbles.locator('img').getAttribute('referrerpolicy')).toBe('no-referrer')
    expect(await bubbles.locator('figcaption').first().textContent()).toBe('The trail jacket')
    expect(await bubbles.locator('video').getAttribute('src')).toBe(`${media}/fit.mp4`)
    expect(await bubbles.locator('audio').getAttribute('src')).toBe(`${media}/care.mp3`)
    const file = bubbles.locator('figure a', { hasText: 'sizes.pdf' })
    expect(await file.getAttribute('href')).toBe(`${media}/sizes.pdf`)
    expect(await file.getAttribute('rel')).toBe('noopener noreferrer nofollow')
  }, E2E_TIMEOUT)
})
