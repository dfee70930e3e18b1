import { expect } from 'bun:test'
import { ORIGIN } from '../people/support/people-context.ts'
import { scenarios } from '../support/scenarios.ts'
import { DESK, type DeskCtx, deskContext } from './support/desk-context.ts'

const list = (query = '') => `${DESK}/conversations${query}`
const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id)

type Ctx = DeskCtx & { cursor?: string }

scenarios<Ctx>('desk: the conversation lists and search', deskContext, [
  {
    name: 'waiting lists handed-off conversations of every chatbot, longest waiting first, with the wait',
    method: 'GET',
    path: list('?view=waiting'),
    key: null,
    headers: (c) => c.asAdmin,
    status: 200,
    check: ({ body }, c) => {
      expect(ids(body)).toEqual([c.first.id, c.second.id])
      expect(body.items[0]).toMatchObject({ status: 'handoff', chatbot_id: c.sales.chatbotId, waiting_seconds: expect.any(Number), unread: true })
      expect(body.items[0].handoff_at).toEqual(expect.any(String))
      expect(body.items[0].contact).toMatchObject({ name: 'Grace Hopper', email: 'grace@navy.mil', identified: false })
      expect(body.items[1].contact).toMatchObject({ phone: '+447700900123', identified: true })
      expect(body.next_cursor).toBeNull()
    },
  },
  {
    name: 'open lists every conversation that is not closed, newest first',
    method: 'GET',
    path: list('?view=open'),
    status: 200,
    check: ({ body }, c) => expect(ids(body)).toEqual([c.withBot.id, c.second.id, c.first.id]),
  },
  { name: 'open is the default view', method: 'GET', path: list(), status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.withBot.id, c.second.id, c.first.id]) },
  { name: 'bot lists those with the bot', method: 'GET', path: list('?view=bot'), status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.withBot.id]) },
  { name: 'closed lists the closed ones', method: 'GET', path: list('?view=closed'), status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.closed.id]) },
  {
    name: 'filters by chatbot',
    method: 'GET',
    path: (c) => list(`?view=open&chatbot_id=${c.support.chatbotId}`),
    status: 200,
    check: ({ body }, c) => expect(ids(body)).toEqual([c.second.id]),
  },
  { name: 'filters by channel', method: 'GET', path: list('?channel=chatapp'), status: 200, check: ({ body }) => expect(body.items).toEqual([]) },
  {
    name: "another workspace's chatbot filters to nothing",
    method: 'GET',
    path: (c) => list(`?view=waiting&chatbot_id=${c.other.ctx.chatbotId}`),
    status: 200,
    check: ({ body }) => expect(body.items).toEqual([]),
  },
  {
    name: 'searches what visitors wrote, in this workspace only',
    method: 'GET',
    path: list('?q=invoice'),
    status: 200,
    check: ({ body }, c) => expect(ids(body)).toEqual([c.first.id]),
  },
  { name: 'a word matches by its beginning', method: 'GET', path: list('?q=refu'), status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.second.id]) },
  { name: "searches any part of the contact's e-mail", method: 'GET', path: list('?q=navy.mi'), status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.first.id]) },
  { name: "searches the contact's name", method: 'GET', path: list('?q=hopper'), status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.first.id]) },
  {
    name: 'searches any part of the phone number, typed with a plus or not',
    method: 'GET',
    path: list(`?q=${encodeURIComponent('+447700')}`),
    status: 200,
    check: async ({ body }, c) => {
      expect(ids(body)).toEqual([c.second.id])
      const digits = await c.app.call('GET', list('?q=0900123'))
      expect(ids(digits.body)).toEqual([c.second.id])
    },
  },
  { name: 'search combines with a view', method: 'GET', path: list('?view=closed&q=invoice'), status: 200, check: ({ body }) => expect(body.items).toEqual([]) },
  {
    name: 'FTS5 syntax in a search is taken as text, never as a query',
    method: 'GET',
    path: list(`?q=${encodeURIComponent('invoice" OR * NEAR(')}`),
    status: 200,
    check: ({ body }) => expect(body.items).toEqual([]),
  },
  {
    name: 'control characters in a search (a NUL, a tab, an escape) separate words, as spaces do',
    method: 'GET',
    path: list(`?q=${encodeURIComponent('invo\u0000ice\u001b refu\tnds')}`),
    status: 200,
    check: ({ body }) => expect(body.items).toEqual([]),
  },
  { name: 'control characters alone find nothing, as punctuation alone', method: 'GET', path: list(`?q=${encodeURIComponent('\u0000\u0001')}`), status: 200, check: ({ body }) => expect(body.items).toEqual([]) },
  { name: 'punctuation alone finds nothing', method: 'GET', path: list(`?q=${encodeURIComponent('@ !')}`), status: 200, check: ({ body }) => expect(body.items).toEqual([]) },
  {
    name: 'pages follow the cursor without repeating or skipping',
    method: 'GET',
    path: list('?view=open&limit=2'),
    status: 200,
    check: async ({ body }, c) => {
      expect(ids(body)).toEqual([c.withBot.id, c.second.id])
      const next = await c.app.call('GET', list(`?view=open&limit=2&cursor=${body.next_cursor}`))
      expect(ids(next.body)).toEqual([c.first.id])
      expect(next.body.next_cursor).toBeNull()
      c.cursor = body.next_cursor
    },
  },
  {
    name: 'the waiting view pages in its own order',
    method: 'GET',
    path: list('?view=waiting&limit=1'),
    status: 200,
    check: async ({ body }, c) => {
      const next = await c.app.call('GET', list(`?view=waiting&limit=1&cursor=${body.next_cursor}`))
      expect([...ids(body), ...ids(next.body)]).toEqual([c.first.id, c.second.id])
    },
  },
  { name: "a cursor of another view is refused", method: 'GET', path: (c) => list(`?view=closed&cursor=${c.cursor}`), status: 422, errorPaths: ['/cursor'] },
  { name: 'a made-up cursor is refused', method: 'GET', path: list('?cursor=not-a-cursor'), status: 422, errorPaths: ['/cursor'] },
  { name: 'an unknown view is refused', method: 'GET', path: list('?view=everything'), status: 422, errorPaths: ['/view'] },
  { name: 'a page of more than 100 is refused', method: 'GET', path: list('?limit=101'), status: 422, errorPaths: ['/limit'] },
  { name: 'a page of 0 is refused', method: 'GET', path: list('?limit=0'), status: 422, errorPaths: ['/limit'] },
  { name: '"mine" needs a person', method: 'GET', path: list('?view=mine'), status: 400, code: 'session_required' },
  { name: 'no key and no session: 401', method: 'GET', path: list(), key: null, status: 401 },
  {
    name: 'an API key never sees unread marks (they are a person\'s)',
    method: 'GET',
    path: list('?view=waiting'),
    status: 200,
    check: ({ body }) => expect(body.items.map((item: { unread: boolean }) => item.unread)).toEqual([false, false]),
  },
  {
    name: 'reading a conversation clears its unread mark for that person only',
    method: 'POST',
    path: (c) => `${DESK}/conversations/${c.first.id}/read`,
    key: null,
    headers: (c) => c.asAdmin,
    body: (c: Ctx) => ({ message_id: c.app.services.conversations.history(c.first.id).messages.at(-1)?.id }),
    status: 204,
    check: async (_, c) => {
      const unread = async (headers: Record<string, string>) =>
        (await c.app.call('GET', list('?view=waiting'), { key: null, headers })).body.items.map((item: { unread: boolean }) => item.unread)
      expect(await unread(c.asAdmin)).toEqual([false, true])
      expect(await unread(c.asAgent)).toEqual([true, true])
    },
  },
  {
    name: 'a read mark needs a message of that conversation',
    method: 'POST',
    path: (c) => `${DESK}/conversations/${c.first.id}/read`,
    key: null,
    headers: (c) => c.asAdmin,
    body: (c: Ctx) => ({ message_id: c.app.services.conversations.history(c.second.id).messages.at(-1)?.id }),
    status: 422,
    errorPaths: ['/message_id'],
  },
  {
    name: 'a read mark without Origin is refused',
    method: 'POST',
    path: (c) => `${DESK}/conversations/${c.first.id}/read`,
    key: null,
    headers: (c) => ({ cookie: c.admin.cookie }),
    body: { message_id: 'x' },
    status: 403,
    code: 'origin_refused',
  },
  {
    name: 'a read mark from another origin is refused',
    method: 'POST',
    path: (c) => `${DESK}/conversations/${c.first.id}/read`,
    key: null,
    headers: (c) => ({ cookie: c.admin.cookie, origin: `${ORIGIN}.evil.example` }),
    body: { message_id: 'x' },
    status: 403,
    code: 'origin_refused',
  },
  {
    name: "one row of the list, and another workspace's conversation is not found",
    method: 'GET',
    path: (c) => `${DESK}/conversations/${c.first.id}`,
    status: 200,
    check: async ({ body }, c) => {
      expect(body).toMatchObject({ id: c.first.id, status: 'handoff' })
      const other = await c.app.call('GET', `${DESK}/conversations/${c.other.id}`)
      expect(other.status).toBe(404)
      const fromThere = await c.app.call('GET', `${DESK}/conversations/${c.first.id}`, { key: c.otherKey })
      expect(fromThere.status).toBe(404)
    },
  },
])
