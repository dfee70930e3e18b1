import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import { activePerson, browser } from '../people/support/people-context.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import type { TestApp } from '../support/test-app.ts'

const hoursOf = (chatbotId: string) => `/api/dev/v1/chatbots/${chatbotId}/business-hours`
const WEEKDAYS = { mon: [{ from: '09:00', until: '17:00' }], tue: [{ from: '09:00', until: '12:00' }, { from: '13:00', until: '17:00' }] }

async function context(app: TestApp) {
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const chat = await setUpWebChat(app)
  const otherKey = app.otherWorkspaceKey()
  return { chatbotId: chat.chatbotId, otherKey, asAgent: browser(agent.cookie) }
}
type Ctx = Awaited<ReturnType<typeof context>>

scenarios<Ctx>("business hours: a chatbot's time zone, weekly hours and holidays", context, [
  { name: 'none set: always open', method: 'GET', path: (c) => hoursOf(c.chatbotId), status: 200, check: ({ body }) => expect(body).toEqual({ hours: null, open_now: true }) },
  {
    name: 'set with a time zone, weekly spans and holidays',
    method: 'PUT',
    path: (c) => hoursOf(c.chatbotId),
    body: { timezone: 'Europe/Berlin', weekly: WEEKDAYS, holidays: [{ date: '2026-12-25', name: 'Christmas' }], closed_text: 'We are back at 9.' },
    status: 200,
    check: ({ body }) => {
      expect(body.hours).toEqual({ timezone: 'Europe/Berlin', weekly: WEEKDAYS, holidays: [{ date: '2026-12-25', name: 'Christmas' }], closed_text: 'We are back at 9.', updated_at: expect.any(String) })
      expect(typeof body.open_now).toBe('boolean')
    },
  },
  { name: 'read back', method: 'GET', path: (c) => hoursOf(c.chatbotId), key: null, headers: (c) => c.asAgent, status: 200, check: ({ body }) => expect(body.hours.timezone).toBe('Europe/Berlin') },
  { name: 'an agent may not set them', method: 'PUT', path: (c) => hoursOf(c.chatbotId), key: null, headers: (c) => c.asAgent, body: { timezone: 'UTC', weekly: {} }, status: 403, code: 'forbidden' },
  { name: 'a time zone that is none', method: 'PUT', path: (c) => hoursOf(c.chatbotId), body: { timezone: 'Mars/Olympus', weekly: {} }, status: 422, errorPaths: ['/timezone'] },
  { name: 'a span ending before it starts', method: 'PUT', path: (c) => hoursOf(c.chatbotId), body: { timezone: 'UTC', weekly: { wed: [{ from: '17:00', until: '09:00' }] } }, status: 422, errorPaths: ['/weekly/wed/0/until'] },
  { name: 'a time that is none', method: 'PUT', path: (c) => hoursOf(c.chatbotId), body: { timezone: 'UTC', weekly: { wed: [{ from: '25:00', until: '26:00' }] } }, status: 422 },
  { name: 'a day that is none', method: 'PUT', path: (c) => hoursOf(c.chatbotId), body: { timezone: 'UTC', weekly: { monday: [] } }, status: 422 },
  { name: 'a holiday on a date that is none', method: 'PUT', path: (c) => hoursOf(c.chatbotId), body: { timezone: 'UTC', weekly: {}, holidays: [{ date: '2026-02-30' }] }, status: 422, errorPaths: ['/holidays/0/date'] },
  { name: "another workspace's chatbot is not found", method: 'GET', path: (c) => hoursOf(c.chatbotId), key: (c) => c.otherKey, status: 404 },
  { name: "another workspace cannot set ours", method: 'PUT', path: (c) => hoursOf(c.chatbotId), key: (c) => c.otherKey, body: { timezone: 'UTC', weekly: {} }, status: 404 },
  {
    name: 'a refused change left the stored hours as they were',
    method: 'GET',
    path: (c) => hoursOf(c.chatbotId),
    status: 200,
    check: ({ body }) => expect(body.hours).toMatchObject({ timezone: 'Europe/Berlin', closed_text: 'We are back at 9.' }),
  },
  { name: 'removed: always open again', method: 'DELETE', path: (c) => hoursOf(c.chatbotId), status: 204 },
  { name: 'removing none is 404', method: 'DELETE', path: (c) => hoursOf(c.chatbotId), status: 404 },
])
