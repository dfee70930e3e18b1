import { describe, expect, test } from 'bun:test'
import { E2E_TIMEOUT } from './support/browser.ts'
import { deskSuite } from './support/desk-suite.ts'
import { waitUntil } from './support/widget-page.ts'

describe('the desk live: people, collisions, notes, typing, reconnects (Chromium, compiled binary)', () => {
  const suite = deskSuite()

  test('two people on one conversation see each other; a reply written against a stale view gets 409, and "send anyway" sends it once', async () => {
    const { visitor, conversationId } = await suite.visitorSays('Can I change my delivery address?')
    const ada = await suite.desk(suite.ada)
    const sam = await suite.desk(suite.sam, { relaySocket: true })
    await ada.goto(`/app/c/${conversationId}`)
    await sam.goto(`/app/c/${conversationId}`)
    await ada.page.locator('[data-presence]', { hasText: 'Sam' }).waitFor()
    await sam.page.locator('[data-presence]', { hasText: 'Ada' }).waitFor()

    // Sam's desk stops hearing the server while the visitor writes again and Ada answers.
    await sam.messagesWhen((shown) => shown.some((message) => message.role === 'visitor'), 'the history')
    sam.holdSocket()
    await visitor.sendText('Actually, it is urgent')
    await ada.messagesWhen((shown) => shown.some((message) => message.text === 'Actually, it is urgent'), 'Ada sees the new message')
    expect((await sam.messages()).some((message) => message.text === 'Actually, it is urgent')).toBe(false)
    await sam.reply('Sure, which address?')
    await sam.page.locator('.stale').waitFor()
    // The refused reply is kept in the box, and what arrived meanwhile is now shown.
    expect(await sam.composer.inputValue()).toBe('Sure, which address?')
    await sam.messagesWhen((shown) => shown.some((message) => message.text === 'Actually, it is urgent'), 'Sam now sees it')
    expect((await visitor.shown()).some((message) => message.text === 'Sure, which address?')).toBe(false)

    await sam.page.locator('[data-action="send-anyway"]').click()
    await visitor.shownText('Sure, which address?', 'agent')
    sam.releaseSocket()
    const shown = await sam.messagesWhen((messages) => messages.findLast((message) => message.role !== 'event')?.text === 'Sure, which address?', 'the reply shown')
    expect(shown.filter((message) => message.text === 'Sure, which address?')).toHaveLength(1)
    expect(shown.filter((message) => message.text === 'Actually, it is urgent')).toHaveLength(1)
    expect(await sam.page.locator('.stale').count()).toBe(0)
    await waitUntil(async () => (await visitor.shown()).filter((message) => message.text === 'Sure, which address?').length === 1, 'the visitor got it once')
  }, E2E_TIMEOUT)

  test('a private note reaches the other desk live and never the visitor', async () => {
    const { visitor, conversationId, chatbotId } = await suite.visitorSays('My parcel is damaged')
    const ada = await suite.desk(suite.ada)
    const sam = await suite.desk(suite.sam)
    await ada.goto(`/app/c/${conversationId}`)
    await sam.goto(`/app/c/${conversationId}`)
    await sam.messagesWhen((shown) => shown.length > 0, 'the history')
    await ada.page.locator('[data-mode="note"]').click()
    await ada.reply('Check the courier claim form first <b>internal</b>')
    const shown = await sam.messagesWhen((messages) => messages.some((message) => message.role === 'note'), 'the note reaches Sam')
    const note = shown.find((message) => message.role === 'note')!
    expect(note.text).toBe('Check the courier claim form first <b>internal</b>')
    expect(note.author).toBe('Ada')
    // A reply afterwards does reach the visitor; the note before it never did.
    await ada.page.getByRole('tab', { name: 'Reply' }).click()
    await ada.reply('We are on it')
    await visitor.shownText('We are on it', 'agent')
    expect((await visitor.shown()).some((message) => message.text.includes('courier'))).toBe(false)
    expect(visitor.received('message').some((frame) => JSON.stringify(frame).includes('courier'))).toBe(false)
    const stored = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}/messages`)
    expect(JSON.stringify(stored)).not.toContain('courier')
  }, E2E_TIMEOUT)

  test('the visitor typing shows on the desk, and the person typing shows in the widget', async () => {
    const { visitor, conversationId } = await suite.visitorSays('Hello?')
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}`)
    await ada.messagesWhen((shown) => shown.length > 0, 'the history')
    await visitor.page.locator('#parley-widget textarea, #parley-widget input[type=text]').first().pressSequentially('I am writ', { delay: 30 })
    await ada.page.locator('.typing', { hasText: 'The visitor is typing' }).waitFor()
    const sam = await suite.desk(suite.sam)
    await sam.goto(`/app/c/${conversationId}`)
    await sam.messagesWhen((shown) => shown.length > 0, 'the history')
    await ada.composer.pressSequentially('One moment', { delay: 30 })
    await waitUntil(() => visitor.received('typing').some((frame) => frame.from === 'agent' && frame.active), 'the widget hears the person typing')
    // Another desk on the conversation is told who is typing.
    await sam.page.locator('.typing', { hasText: 'Ada is typing' }).waitFor()
  }, E2E_TIMEOUT)

  test('take over, hand back and close show on both desks, on the timeline with who did it', async () => {
    const { conversationId } = await suite.visitorSays('Please help')
    const ada = await suite.desk(suite.ada)
    const sam = await suite.desk(suite.sam)
    await ada.goto(`/app/c/${conversationId}`)
    await sam.goto(`/app/c/${conversationId}`)
    await sam.page.locator('[data-action="hand-back"]').click()
    await ada.page.locator('.status-bot').waitFor()
    await ada.page.locator('[data-action="take-over"]').click()
    await sam.page.locator('.status-handoff').waitFor()
    await sam.page.locator('[data-action="close"]').click()
    await ada.page.locator('.status-closed').waitFor()
    const events = (await ada.messagesWhen((shown) => shown.filter((message) => message.role === 'event').length >= 5, 'five events')).filter((message) => message.role === 'event')
    expect(events.map((event) => event.text.replace(/\s*\d\d:\d\d.*$/, ''))).toEqual([
      'Handed off to a person at state “human”',
      'Handed back to the bot by Sam',
      'Taken over by Ada',
      'Assigned to Ada by Ada',
      'Closed by Sam',
    ])
  }, E2E_TIMEOUT)

  test('offline, then the server restarts: the desk shows "reconnecting", then catches up with no gap and no double', async () => {
    const { visitor, conversationId } = await suite.visitorSays('First question')
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}?view=open`)
    await ada.messagesWhen((shown) => shown.some((message) => message.text === 'First question'), 'the history')

    await ada.watched.context.setOffline(true)
    await ada.page.locator('.banner', { hasText: 'Reconnecting' }).waitFor()
    await visitor.sendText('Second, while the desk is offline')
    await visitor.shownText('Second, while the desk is offline', 'visitor')
    await waitUntil(async () => JSON.stringify(await suite.bed.must('GET', `/api/dev/v1/desk/conversations/${conversationId}/timeline`)).includes('Second, while'), 'stored')
    await suite.bed.restart()
    await visitor.connected(2)
    await visitor.sendText('Third, after the restart')
    await visitor.shownText('Third, after the restart', 'visitor')
    const other = await suite.visitorSays('A new visitor while the desk was away')

    await ada.watched.context.setOffline(false)
    await ada.page.locator('.banner').waitFor({ state: 'detached', timeout: 15_000 })
    const shown = await ada.messagesWhen((messages) => messages.some((message) => message.text === 'Third, after the restart'), 'caught up')
    const visitorLines = shown.filter((message) => message.role === 'visitor').map((message) => message.text)
    expect(visitorLines).toEqual(['First question', 'Second, while the desk is offline', 'Third, after the restart'])
    expect(new Set(shown.map((message) => message.id + message.text)).size).toBe(shown.length)
    await ada.rowsWhen((rows) => rows.some((row) => row.id === other.conversationId), 'the new conversation is listed')
    const rows = await ada.rows()
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length)
    // Still live afterwards.
    await visitor.sendText('Fourth, live again')
    await ada.messagesWhen((messages) => messages.some((message) => message.text === 'Fourth, live again'), 'live again')
    expect(ada.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('assigning to a colleague puts the conversation in their "Mine" view live', async () => {
    const { conversationId } = await suite.visitorSays('Who will help me?')
    const ada = await suite.desk(suite.ada)
    const sam = await suite.desk(suite.sam)
    await sam.view('mine')
    await sam.page.locator('.list .empty, .list .row').first().waitFor()
    expect((await sam.rows()).some((row) => row.id === conversationId)).toBe(false)
    await ada.goto(`/app/c/${conversationId}`)
    const people = await suite.bed.must('GET', '/api/dev/v1/users')
    const samId = people.items.find((user: { email: string }) => user.email === suite.sam.email).id
    await ada.page.getByRole('combobox', { name: 'Assigned to' }).selectOption(samId)
    await sam.rowsWhen((rows) => rows.some((row) => row.id === conversationId), 'listed under Mine')
    await ada.messagesWhen((shown) => shown.some((message) => message.text.startsWith('Assigned to Sam by Ada')), 'the assignment on the timeline')
  }, E2E_TIMEOUT)

  test('signing out everywhere closes an open desk at once: its socket ends and sign-in shows; a socket with the old cookie is refused', async () => {
    const first = await suite.desk(suite.sam)
    const second = await suite.desk(suite.sam)
    await first.page.locator('.banner').waitFor({ state: 'detached' })
    const status = await second.page.evaluate(async () => (await fetch('/api/dev/v1/auth/sign-out-everywhere', { method: 'POST' })).status)
    expect(status).toBe(204)
    await first.page.locator('form.auth-card').waitFor({ state: 'visible' })
    const opened = await first.page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(new URL('/app/socket', location.href).href.replace('http', 'ws'))
          socket.onopen = () => resolve('open')
          socket.onclose = () => resolve('closed')
        }),
    )
    expect(opened).toBe('closed')
  }, E2E_TIMEOUT)
})
