import { describe, expect, test } from 'bun:test'
import { E2E_TIMEOUT } from './support/browser.ts'
import { DeskPage } from './support/desk-page.ts'
import { type DeskSuite, deskSuite } from './support/desk-suite.ts'
import { waitUntil } from './support/widget-page.ts'
import { expectInViewport } from '../journeys/support/in-viewport.ts'
import { expectAccessible } from '../journeys/support/accessible.ts'

describe('the desk at /app in Chromium, against the compiled binary', () => {
  const suite = deskSuite()
  const { opened } = suite
  const desk: DeskSuite['desk'] = (person, options) => suite.desk(person, options)
  const visitorSays: DeskSuite['visitorSays'] = (text, flow) => suite.visitorSays(text, flow)

  test('a handoff shows in the Waiting list without a reload, and a reply reaches the widget', async () => {
    const agent = await desk(suite.sam)
    await agent.page.locator('.list .empty, .list .row').first().waitFor()
    const before = (await agent.rows()).length
    const { visitor, conversationId } = await visitorSays('I need a refund for order 1042')
    const rows = await agent.rowsWhen((shown) => shown.some((row) => row.id === conversationId), 'the handoff is listed')
    expect(rows.length).toBe(before + 1)
    const row = rows.find((shown) => shown.id === conversationId)!
    expect(row.waiting).toMatch(/^waiting \d+ s$/)
    expect(row.unread).toBe(true)
    await waitUntil(async () => /^\(\d+\) Parley desk$/.test(await agent.page.title()), 'the tab title counts the unread handoff', { seen: () => agent.page.title() })

    await agent.openConversation(conversationId)
    const history = await agent.messagesWhen((shown) => shown.length >= 4, 'the history is shown')
    expect(history.map((message) => [message.role, message.role === 'event' ? message.text.replace(/\s*\d\d:\d\d.*$/, '') : message.text])).toEqual([
      ['bot', 'Hello! What can we do for you?'],
      ['visitor', 'I need a refund for order 1042'],
      ['bot', 'A person will answer you here shortly.'],
      ['event', 'Handed off to a person at state “human”'],
    ])
    await agent.reply('Hi, I am Sam. Let me look at order 1042.')
    const shown = await visitor.shownText('Hi, I am Sam. Let me look at order 1042.', 'agent')
    expect(shown.at(-1)?.author).toContain('Sam')
    // The reply, under Sam's name, and the conversation nobody had is now Sam's.
    await agent.messagesWhen((messages) => messages.findLast((message) => message.role !== 'event')?.author === 'Sam', 'the reply is shown with its author')
    await agent.messagesWhen((messages) => messages.at(-1)?.text.startsWith('Assigned to Sam by Sam') === true, 'the assignment by reply on the timeline')
    // Answered, so nobody waits: it leaves the Waiting view; opened, so read, under Mine.
    await agent.rowsWhen((shown) => !shown.some((candidate) => candidate.id === conversationId), 'the answered conversation leaves Waiting')
    await agent.view('mine')
    await agent.rowsWhen((shown) => shown.find((candidate) => candidate.id === conversationId)?.unread === false, 'the row is read, under Mine')
    await waitUntil(async () => (await agent.page.title()) === 'Parley desk', 'the title has nothing unread left', { seen: () => agent.page.title() })
    expect(agent.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('HTML in what a visitor wrote is shown as text, never as markup', async () => {
    const agent = await desk(suite.ada)
    const attack = '<img src=x onerror="window.__pwned=1"><b>bold</b> <script>window.__pwned=2</script>'
    const { conversationId } = await visitorSays(attack)
    await agent.goto(`/app/c/${conversationId}`)
    const shown = await agent.messagesWhen((messages) => messages.some((message) => message.role === 'visitor'), 'the visitor message')
    const message = shown.find((candidate) => candidate.role === 'visitor')!
    expect(message.text).toBe(attack)
    expect(message.html).not.toContain('<img')
    expect(message.html).not.toContain('<b>')
    expect(await agent.page.locator('.conversation .bubble img, .conversation .bubble b, .conversation .bubble script').count()).toBe(0)
    expect(await agent.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
  }, E2E_TIMEOUT)

  test('the session cookie is HttpOnly and SameSite=Lax, and the page cannot read it', async () => {
    const agent = await desk(suite.sam)
    const cookies = await agent.watched.context.cookies(suite.bed.url)
    const session = cookies.find((cookie) => cookie.name === 'parley_session')
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' })
    expect(await agent.page.evaluate(() => document.cookie)).not.toContain('parley_session')
  }, E2E_TIMEOUT)

  test('signing out cuts access: the API answers 401 with the old cookie and the desk shows sign-in', async () => {
    const agent = await desk(suite.sam)
    const cookie = (await agent.watched.context.cookies(suite.bed.url)).find((candidate) => candidate.name === 'parley_session')!
    await agent.page.getByRole('button', { name: 'Sign out' }).click()
    await agent.page.locator('form.auth-card').waitFor({ state: 'visible' })
    expect(new URL(agent.page.url()).pathname).toBe('/app/sign-in')
    expect(await agent.page.evaluate(async () => (await fetch('/api/dev/v1/auth/me')).status)).toBe(401)
    // The old cookie, replayed from elsewhere, opens nothing either.
    const replay = await fetch(`${suite.bed.url}/api/dev/v1/auth/me`, { headers: { cookie: `parley_session=${cookie.value}` } })
    expect(replay.status).toBe(401)
  }, E2E_TIMEOUT)

  test('an agent is refused admin routes (403) while conversations stay open to them', async () => {
    const agent = await desk(suite.sam)
    const answers = await agent.page.evaluate(async () => {
      const post = (path: string, body: unknown) =>
        fetch(`/api/dev/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status)
      return {
        invite: await post('/users', { email: 'eve@acme.test', display_name: 'Eve', role: 'admin' }),
        chatbot: await post('/chatbots', { name: 'Mine now' }),
        readChatbots: await fetch('/api/dev/v1/chatbots').then((r) => r.status),
      }
    })
    expect(answers).toEqual({ invite: 403, chatbot: 403, readChatbots: 200 })
    // The desk offers an agent no way into the console, which would only refuse them.
    expect(await agent.page.locator('[data-nav=console]').count()).toBe(0)
  }, E2E_TIMEOUT)

  test('a deep link signed out goes through sign-in and lands on the conversation', async () => {
    const { conversationId } = await visitorSays('Where is my parcel?')
    const page = await DeskPage.open(suite.browser, suite.bed.url)
    opened.push(page)
    await page.goto(`/app/c/${conversationId}`)
    await page.page.locator('form.auth-card').waitFor({ state: 'visible' })
    await page.page.locator('input[name=email]').fill(suite.ada.email)
    await page.page.locator('input[name=password]').fill(suite.ada.password)
    await page.page.locator('button[type=submit]').click()
    await page.messagesWhen((messages) => messages.some((message) => message.text === 'Where is my parcel?'), 'the linked conversation')
    expect(new URL(page.page.url()).pathname).toBe(`/app/c/${conversationId}`)
  }, E2E_TIMEOUT)

  test('an invite link opens a page that sets the password and signs the person in', async () => {
    const made = await suite.bed.must('POST', '/api/dev/v1/users', { email: 'lee@acme.test', display_name: 'Lee', role: 'agent' })
    const page = await DeskPage.open(suite.browser, suite.bed.url)
    opened.push(page)
    await page.page.goto(made.invite.url)
    // The token leaves the address bar at once.
    await waitUntil(() => !page.page.url().includes('token'), 'the token is gone from the address')
    // The page says which e-mail the person will sign in with.
    await expectInViewport(page.page.locator('.link-email [data-email]'), 'the e-mail of the invite')
    expect(await page.page.locator('.link-email [data-email]').textContent()).toBe('lee@acme.test')
    await page.page.locator('input[name=password]').fill('lee-correct-horse')
    await page.page.locator('input[name=repeat]').fill('lee-correct-horse')
    await page.page.locator('button[type=submit]').click()
    await page.page.locator('.desk').waitFor({ state: 'visible' })
    expect(await page.page.locator('.topbar .who').textContent()).toBe('Lee')
    // The link worked once: opened again, it says so at once, and how to get a new one, with no form.
    await page.page.goto(made.invite.url)
    await expectInViewport(page.page.locator('[data-dead-link] .form-error'), 'the used link said')
    expect(await page.page.locator('[data-dead-link] .form-error').textContent()).toContain('already used')
    expect(await page.page.locator('[data-dead-link]').textContent()).toContain('Ask an admin of your team for a new link')
    expect(await page.page.locator('input').count()).toBe(0)
  }, E2E_TIMEOUT)

  test('at phone size (390×844) the list fills the screen, a conversation replaces it, and back returns', async () => {
    const { conversationId } = await visitorSays('Hello from my phone')
    const phone = await desk(suite.ada, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    await phone.rowsWhen((rows) => rows.some((row) => row.id === conversationId), 'the handoff is listed')
    const listBox = await phone.page.locator('.list').boundingBox()
    expect(listBox?.width).toBeGreaterThan(380)
    expect(await phone.page.locator('.conversation').isVisible()).toBe(false)
    await phone.openConversation(conversationId)
    expect(await phone.page.locator('.list').isVisible()).toBe(false)
    const composer = await phone.composer.boundingBox()
    expect(composer!.x + composer!.width).toBeLessThanOrEqual(390)
    expect(composer!.y + composer!.height).toBeLessThanOrEqual(844)
    // Nothing is wider than the screen.
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await phone.reply('Answered from a phone')
    await phone.messagesWhen((messages) => messages.findLast((message) => message.role !== 'event')?.text === 'Answered from a phone', 'the reply')
    await phone.page.getByRole('button', { name: 'Back to the list' }).click()
    await phone.page.locator('.list').waitFor({ state: 'visible' })

    // The language, on a phone too: a globe and the language's tag in the top bar; a tap lands
    // on the language select itself (transparent over them), which opens the phone's picker.
    const face = phone.page.locator('.topbar .language-face')
    await expectInViewport(phone.page.locator('.topbar .language-picker'), "the language's globe in the phone's top bar")
    expect((await face.textContent())?.trim()).toBe('EN')
    const box = (await face.boundingBox())!
    expect(await phone.page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('aria-label'), { x: box.x + box.width / 2, y: box.y + box.height / 2 })).toBe('Language')
    await phone.page.screenshot({ path: `${process.env.PARLEY_SCREENSHOTS ?? '/tmp'}/desk-phone-language.png` })
    await expectAccessible(phone.page, "the desk's list on a phone, with the language in its top bar")
    await phone.page.getByRole('combobox', { name: 'Language' }).selectOption('es')
    await phone.page.locator('.view[data-view=waiting]', { hasText: 'En espera' }).waitFor()
    expect((await face.textContent())?.trim()).toBe('ES')
    expect(await phone.page.evaluate(() => document.documentElement.lang)).toBe('es')
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await phone.page.screenshot({ path: `${process.env.PARLEY_SCREENSHOTS ?? '/tmp'}/desk-phone-spanish.png` })
    await expectAccessible(phone.page, "the desk's list on a phone, in Spanish")
    // Back to the browser's language (Ada's other tests read English).
    await phone.page.getByRole('combobox', { name: 'Idioma' }).selectOption('')
    await phone.page.locator('.view[data-view=waiting]', { hasText: 'Waiting' }).waitFor()
    expect((await face.textContent())?.trim()).toBe('EN')
  }, E2E_TIMEOUT)

  test('? lists the keyboard shortcuts; j opens the next conversation; Esc goes back', async () => {
    const { conversationId } = await visitorSays('Keyboard person here')
    const agent = await desk(suite.ada)
    await agent.rowsWhen((rows) => rows.some((row) => row.id === conversationId), 'the handoff is listed')
    await agent.page.keyboard.press('?')
    await agent.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'visible' })
    await agent.page.keyboard.press('Escape')
    await agent.page.getByRole('dialog').waitFor({ state: 'detached' })
    await agent.page.keyboard.press('j')
    await agent.page.locator('.conversation .messages').waitFor({ state: 'visible' })
    expect(new URL(agent.page.url()).pathname).toStartWith('/app/c/')
    await agent.page.keyboard.press('Escape')
    await waitUntil(() => /^\/app\/?$/.test(new URL(agent.page.url()).pathname), 'back at the list', { seen: () => agent.page.url() })
  }, E2E_TIMEOUT)
})
