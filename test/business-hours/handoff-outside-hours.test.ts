import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { DEFAULT_CLOSED_TEXT } from '../../server/engine/enter-state.ts'
import { flush, openConversation } from '../desk/support/desk-context.ts'
import { SALES_FLOW, setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

/** A flow that tells the visitor, on its own, whether the team is in. */
const BRANCHING: ConversationFlow = {
  version: 1,
  start: 'route',
  states: {
    route: { branch: [{ business_hours: true, to: 'open' }, { to: 'closed' }] },
    open: { say: [{ text: 'We are in' }], end: true },
    closed: { say: [{ text: 'We are out' }], end: true },
  },
}

// The clock the app reads: every turn is stamped with it, and business hours are checked against it. Never slept on.
let clock = '2026-03-02T08:30:00.000Z' // Monday 09:30 in Berlin
const WEEKDAYS_9_TO_17 = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [{ from: '09:00', until: '17:00' }]]))

describe('outside business hours (a controlled clock)', () => {
  let app: TestApp
  let sales: WebChat
  let branching: WebChat
  const botLines = async (conversationId: string) =>
    (await app.call('GET', `/api/dev/v1/desk/conversations/${conversationId}/timeline`)).body.items
      .filter((item: { type: string; message?: { role: string } }) => item.type === 'message' && item.message?.role === 'bot')
      .map((item: { message: { content: { text: string } } }) => item.message.content.text)
  const setHours = (chatbotId: string, extra: Record<string, unknown> = {}) =>
    app.call('PUT', `/api/dev/v1/chatbots/${chatbotId}/business-hours`, { body: { timezone: 'Europe/Berlin', weekly: WEEKDAYS_9_TO_17, holidays: [{ date: '2026-03-04' }], ...extra } })

  beforeAll(async () => {
    app = testApp({}, {}, () => clock)
    sales = await setUpWebChat(app)
    branching = await setUpWebChat(app, { flow: BRANCHING })
    expect((await setHours(sales.chatbotId, { closed_text: 'We are away until 9 tomorrow. Leave your e-mail and we will write.' })).status).toBe(200)
    expect((await setHours(branching.chatbotId)).status).toBe(200)
  })
  afterAll(() => app.close())

  test('within the hours the handoff promises an answer here; outside them it says the team is away instead', async () => {
    clock = '2026-03-02T08:30:00.000Z'
    const within = openConversation(app, sales, { handoff: true })
    await flush()
    expect((await botLines(within.id)).at(-1)).toBe('A person will answer you here shortly.')
    clock = '2026-03-02T17:30:00.000Z' // Monday 18:30 in Berlin
    const after = openConversation(app, sales, { handoff: true })
    await flush()
    const lines = await botLines(after.id)
    expect(lines.at(-1)).toBe('We are away until 9 tomorrow. Leave your e-mail and we will write.')
    expect(lines).not.toContain('A person will answer you here shortly.')
    // Still handed off: the team answers it later (by e-mail, or here when the visitor is back).
    expect(app.services.conversations.get(after.id)?.status).toBe('handoff')
    expect((await app.call('GET', `/api/dev/v1/chatbots/${sales.chatbotId}/business-hours`)).body.open_now).toBe(false)
  })

  test('a flow branches on "within business hours"; a holiday is outside them; a chatbot without hours is always open', async () => {
    clock = '2026-03-03T10:00:00.000Z' // Tuesday 11:00
    const tuesday = openConversation(app, branching)
    clock = '2026-03-04T10:00:00.000Z' // Wednesday 11:00, a holiday
    const holiday = openConversation(app, branching)
    clock = '2026-03-07T10:00:00.000Z' // Saturday
    const saturday = openConversation(app, branching)
    await flush()
    expect(await botLines(tuesday.id)).toContain('We are in')
    expect(await botLines(holiday.id)).toContain('We are out')
    expect(await botLines(saturday.id)).toContain('We are out')
    // Hours changed through the API apply to the next turn (what the turn keeps in memory is forgotten).
    await app.call('DELETE', `/api/dev/v1/chatbots/${branching.chatbotId}/business-hours`)
    const always = openConversation(app, branching)
    await flush()
    expect(await botLines(always.id)).toContain('We are in')
  })

  test('without a text of its own, the handoff outside hours says the default', async () => {
    await setHours(sales.chatbotId)
    clock = '2026-03-08T12:00:00.000Z' // Sunday
    const sunday = openConversation(app, sales, { handoff: true })
    await flush()
    expect((await botLines(sunday.id)).at(-1)).toBe(DEFAULT_CLOSED_TEXT)
    expect(SALES_FLOW.states.human?.handoff?.text).toBe('A person will answer you here shortly.')
  })
})
