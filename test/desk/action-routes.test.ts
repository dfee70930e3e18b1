import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { activePerson, signIn } from '../people/support/people-context.ts'
import { DESK, deskContext } from './support/desk-context.ts'

const conversation = (id: string, tail = '') => `${DESK}/conversations/${id}${tail}`
const lastMessageId = (app: TestApp, id: string) => app.services.conversations.history(id).messages.at(-1)?.id as string

async function setup(app: TestApp) {
  const ctx = await deskContext(app)
  const elsewhere = await activePerson(app, 'eve@other.io', 'admin', ctx.otherKey)
  const spare = await signIn(app, 'sam@acme.io')
  const sessions = await app.call('GET', '/api/dev/v1/auth/sessions', { key: null, headers: { cookie: spare } })
  const spareId = (sessions.body.items as { id: string; current: boolean }[]).find((row) => row.current)?.id as string
  // What two people saw before the visitor wrote again, and before a colleague answered.
  const firstSeen = lastMessageId(app, ctx.first.id)
  app.services.conversations.visitorSays(ctx.first.conversation, { clientId: crypto.randomUUID(), content: { kind: 'text', text: 'are you there?' } }, ctx.first.ctx)
  const secondSeen = lastMessageId(app, ctx.second.id)
  const colleague = await app.call('POST', `${DESK}/conversations/${ctx.second.id}/replies`, { key: null, headers: ctx.asAgent, body: { text: 'Sam answered first' } })
  if (colleague.status !== 201) throw new Error(colleague.text)
  return { ...ctx, elsewhere, spare, spareId, savedReplyId: '', firstSeen, secondSeen }
}
type Ctx = Awaited<ReturnType<typeof setup>>

scenarios<Ctx>('desk: assignment, notes, replies, status, context and saved replies', setup, [
  // Assignment
  {
    name: 'assigning to "me" assigns the signed-in person and records who did it',
    method: 'POST',
    path: (c) => conversation(c.first.id, '/assign'),
    key: null,
    headers: (c) => c.asAgent,
    body: { assignee_id: 'me' },
    status: 200,
    check: async ({ body }, c) => {
      expect(body.assignee).toEqual({ id: c.agent.id, display_name: 'sam' })
      const mine = await c.app.call('GET', `${DESK}/conversations?view=mine`, { key: null, headers: c.asAgent })
      expect(mine.body.items.map((item: { id: string }) => item.id)).toEqual([c.first.id])
      const events = await c.app.call('GET', conversation(c.first.id, '/events'))
      expect(events.body.items.at(-1)).toMatchObject({ kind: 'assigned', actor: { id: c.agent.id, display_name: 'sam' }, data: { assignee: { id: c.agent.id } } })
    },
  },
  {
    name: 'assigning to someone else by id',
    method: 'POST',
    path: (c) => conversation(c.first.id, '/assign'),
    key: null,
    headers: (c) => c.asAdmin,
    body: (c: Ctx) => ({ assignee_id: c.admin.id }),
    status: 200,
    check: ({ body }, c) => expect(body.assignee).toEqual({ id: c.admin.id, display_name: 'ada' }),
  },
  { name: '"me" needs a person', method: 'POST', path: (c) => conversation(c.first.id, '/assign'), body: { assignee_id: 'me' }, status: 400, code: 'session_required' },
  {
    name: "a person of another workspace cannot be assigned",
    method: 'POST',
    path: (c) => conversation(c.first.id, '/assign'),
    body: (c: Ctx) => ({ assignee_id: c.elsewhere.id }),
    status: 422,
    errorPaths: ['/assignee_id'],
  },
  {
    name: "another workspace's conversation is not found",
    method: 'POST',
    path: (c) => conversation(c.other.id, '/assign'),
    body: { assignee_id: null },
    status: 404,
  },
  {
    name: 'unassigning with null, by API key: no actor',
    method: 'POST',
    path: (c) => conversation(c.second.id, '/assign'),
    body: (c: Ctx) => ({ assignee_id: c.agent.id }),
    status: 200,
    check: async (_, c) => {
      const cleared = await c.app.call('POST', conversation(c.second.id, '/assign'), { body: { assignee_id: null } })
      expect(cleared.body.assignee).toBeNull()
      const events = await c.app.call('GET', conversation(c.second.id, '/events'))
      expect(events.body.items.at(-1)).toMatchObject({ kind: 'unassigned', actor: null })
    },
  },
  { name: 'assignment without a body field is refused', method: 'POST', path: (c) => conversation(c.first.id, '/assign'), body: {}, status: 422, errorPaths: ['/assignee_id'] },

  // Notes
  {
    name: 'a private note is stored with its author and shown on the timeline, never among messages',
    method: 'POST',
    path: (c) => conversation(c.first.id, '/notes'),
    key: null,
    headers: (c) => c.asAgent,
    body: { text: 'VIP: refund approved by finance' },
    status: 201,
    check: async ({ body }, c) => {
      expect(body).toMatchObject({ conversation_id: c.first.id, author: { id: c.agent.id, display_name: 'sam' }, text: 'VIP: refund approved by finance' })
      const notes = await c.app.call('GET', conversation(c.first.id, '/notes'))
      expect(notes.body.items).toEqual([body])
      const timeline = await c.app.call('GET', conversation(c.first.id, '/timeline'))
      expect(timeline.body.items.filter((item: { type: string }) => item.type === 'note')).toEqual([{ type: 'note', at: body.created_at, note: body }])
      const messages = await c.app.call('GET', `/api/dev/v1/chatbots/${c.sales.chatbotId}/conversations/${c.first.id}/messages?limit=200`)
      expect(messages.text).not.toContain('refund approved')
      const search = await c.app.call('GET', `${DESK}/conversations?q=finance`)
      expect(search.body.items).toEqual([])
    },
  },
  { name: 'an empty note is refused', method: 'POST', path: (c) => conversation(c.first.id, '/notes'), body: { text: '' }, status: 422, errorPaths: ['/text'] },
  { name: 'a note over 4096 characters is refused', method: 'POST', path: (c) => conversation(c.first.id, '/notes'), body: { text: 'x'.repeat(4097) }, status: 422, errorPaths: ['/text'] },
  { name: "a note on another workspace's conversation is not found", method: 'POST', path: (c) => conversation(c.other.id, '/notes'), body: { text: 'hi' }, status: 404 },
  {
    name: "another workspace cannot read the notes",
    method: 'GET',
    path: (c) => conversation(c.first.id, '/notes'),
    key: (c) => c.otherKey,
    status: 404,
  },

  // Replies and stale views
  {
    name: 'a reply against the newest message is sent under the person\'s name',
    method: 'POST',
    path: (c) => conversation(c.first.id, '/replies'),
    key: null,
    headers: (c) => c.asAgent,
    body: (c: Ctx) => ({ text: 'Hi Grace, Sam here.', last_seen_message_id: lastMessageId(c.app, c.first.id) }),
    status: 201,
    check: ({ body }, c) => expect(body).toMatchObject({ conversation_id: c.first.id, role: 'agent', author: 'sam', content: { kind: 'text', text: 'Hi Grace, Sam here.' } }),
  },
  {
    name: 'a reply written against a stale view gets 409 naming the newer messages',
    method: 'POST',
    path: (c) => conversation(c.first.id, '/replies'),
    key: null,
    headers: (c) => c.asAdmin,
    body: (c: Ctx) => ({ text: 'Ada here', last_seen_message_id: c.firstSeen }),
    status: 409,
    code: 'stale_view',
    check: async ({ body }, c) => {
      // The visitor wrote since, and Sam answered: both are named, oldest first.
      expect(body.errors.map((error: { code: string }) => error.code)).toEqual(['visitor', 'agent'])
      expect(body.errors[0]).toEqual({ path: expect.stringMatching(/^\/messages\//), message: expect.stringContaining('visitor wrote at'), code: 'visitor' })
      const forced = await c.app.call('POST', conversation(c.first.id, '/replies'), { key: null, headers: c.asAdmin, body: { text: 'Ada here', last_seen_message_id: c.firstSeen, force: true } })
      expect(forced.status).toBe(201)
    },
  },
  {
    name: "a colleague's reply makes a view stale as well",
    method: 'POST',
    path: (c) => conversation(c.second.id, '/replies'),
    key: null,
    headers: (c) => c.asAdmin,
    body: (c: Ctx) => ({ text: 'me too', last_seen_message_id: c.secondSeen }),
    status: 409,
    code: 'stale_view',
    check: ({ body }) => expect(body.errors.map((error: { code: string }) => error.code)).toEqual(['agent']),
  },
  {
    name: 'last_seen_message_id of another conversation is refused',
    method: 'POST',
    path: (c) => conversation(c.first.id, '/replies'),
    body: (c: Ctx) => ({ text: 'x', last_seen_message_id: lastMessageId(c.app, c.second.id) }),
    status: 422,
    errorPaths: ['/last_seen_message_id'],
  },
  { name: 'a reply with an unknown field is refused', method: 'POST', path: (c) => conversation(c.first.id, '/replies'), body: { text: 'x', urgent: true }, status: 422 },

  // Status
  {
    name: 'taking over records who did it at which state, and assigns them',
    method: 'POST',
    path: (c) => conversation(c.withBot.id, '/status'),
    key: null,
    headers: (c) => c.asAgent,
    body: { status: 'handoff' },
    status: 200,
    check: async ({ body }, c) => {
      expect(body).toMatchObject({ status: 'handoff', assignee: { id: c.agent.id } })
      const events = (await c.app.call('GET', conversation(c.withBot.id, '/events'))).body.items
      expect(events.map((event: { kind: string }) => event.kind)).toEqual(['handed_off', 'assigned'])
      expect(events[0]).toMatchObject({ actor: { id: c.agent.id, display_name: 'sam' }, data: { from: 'bot', state: 'welcome' } })
    },
  },
  {
    name: 'handing back and closing are on the timeline too',
    method: 'POST',
    path: (c) => conversation(c.withBot.id, '/status'),
    key: null,
    headers: (c) => c.asAdmin,
    body: { status: 'bot' },
    status: 200,
    check: async (_, c) => {
      await c.app.call('POST', conversation(c.withBot.id, '/status'), { body: { status: 'closed' } })
      const events = (await c.app.call('GET', conversation(c.withBot.id, '/events'))).body.items
      expect(events.slice(-2).map((event: { kind: string; actor: unknown }) => [event.kind, event.actor])).toEqual([
        ['handed_back', { id: c.admin.id, display_name: 'ada' }],
        ['closed', null],
      ])
    },
  },
  { name: 'an unknown status is refused', method: 'POST', path: (c) => conversation(c.first.id, '/status'), body: { status: 'snoozed' }, status: 422, errorPaths: ['/status'] },

  // Context
  {
    name: 'the context panel: contact, details with when they were set, channel, flow at the handoff',
    method: 'GET',
    path: (c) => conversation(c.first.id, '/context'),
    key: null,
    headers: (c) => c.asAgent,
    status: 200,
    check: ({ body }, c) => {
      expect(body.conversation).toMatchObject({ id: c.first.id, channel: 'web', chatbot: { id: c.sales.chatbotId, name: 'Web bot' }, integration: { id: c.sales.integrationId, name: 'Site', type: 'web' } })
      expect(body.contact.identity).toBeNull()
      expect(body.contact.details).toEqual([
        { key: 'name', value: 'Grace Hopper', set_at: expect.any(String) },
        { key: 'email', value: 'grace@navy.mil', set_at: expect.any(String) },
        { key: 'plan', value: 'pro', set_at: expect.any(String) },
      ])
      expect(body.flow).toEqual({ id: c.sales.flowId, name: 'Main', version: 1, state: 'human', variables: {}, at_handoff: true })
      expect(body.visitor).toEqual({ page_url: null, user_agent: null, address: null })
    },
  },
  {
    name: 'an identified contact shows their identity, unverified without an identity secret',
    method: 'GET',
    path: (c) => conversation(c.second.id, '/context'),
    status: 200,
    check: ({ body }) => expect(body.contact.identity).toEqual({ kind: 'phone', value: '+447700900123', verified: false }),
  },
  { name: "another workspace's context is not found", method: 'GET', path: (c) => conversation(c.other.id, '/context'), status: 404 },

  // Saved replies
  {
    name: 'an agent adds a saved reply',
    method: 'POST',
    path: `${DESK}/saved-replies`,
    key: null,
    headers: (c) => c.asAgent,
    body: { shortcut: 'refund', text: 'Your refund is on its way.' },
    status: 201,
    check: ({ body }, c) => {
      expect(body).toEqual({ id: expect.any(String), shortcut: 'refund', text: 'Your refund is on its way.', created_at: expect.any(String), updated_at: null })
      c.savedReplyId = body.id
    },
  },
  { name: 'a shortcut is unique whatever its case', method: 'POST', path: `${DESK}/saved-replies`, body: { shortcut: 'REFUND', text: 'x' }, status: 409, code: 'shortcut_taken' },
  { name: 'a shortcut with spaces is refused', method: 'POST', path: `${DESK}/saved-replies`, body: { shortcut: 'two words', text: 'x' }, status: 422, errorPaths: ['/shortcut'] },
  {
    name: 'the list is per workspace',
    method: 'GET',
    path: `${DESK}/saved-replies`,
    status: 200,
    check: async ({ body }, c) => {
      expect(body.items.map((item: { shortcut: string }) => item.shortcut)).toEqual(['refund'])
      const other = await c.app.call('GET', `${DESK}/saved-replies`, { key: c.otherKey })
      expect(other.body.items).toEqual([])
    },
  },
  {
    name: 'a saved reply is changed',
    method: 'PATCH',
    path: (c) => `${DESK}/saved-replies/${c.savedReplyId}`,
    key: null,
    headers: (c) => c.asAdmin,
    body: { text: 'Refunded: 3 to 5 days.' },
    status: 200,
    check: ({ body }) => expect(body).toMatchObject({ shortcut: 'refund', text: 'Refunded: 3 to 5 days.', updated_at: expect.any(String) }),
  },
  { name: "another workspace's saved reply is not found", method: 'PATCH', path: (c) => `${DESK}/saved-replies/${c.savedReplyId}`, key: (c) => c.otherKey, body: { text: 'x' }, status: 404 },
  { name: "another workspace cannot delete it", method: 'DELETE', path: (c) => `${DESK}/saved-replies/${c.savedReplyId}`, key: (c) => c.otherKey, status: 404 },
  {
    name: 'an agent deletes a saved reply',
    method: 'DELETE',
    path: (c) => `${DESK}/saved-replies/${c.savedReplyId}`,
    key: null,
    headers: (c) => c.asAgent,
    status: 204,
    check: async (_, c) => expect((await c.app.call('GET', `${DESK}/saved-replies`)).body.items).toEqual([]),
  },

  // The agent role and sessions
  { name: 'an agent is refused admin actions (a chatbot)', method: 'POST', path: '/api/dev/v1/chatbots', key: null, headers: (c) => c.asAgent, body: { name: 'x' }, status: 403, code: 'forbidden' },
  { name: 'an agent is refused admin actions (people)', method: 'POST', path: '/api/dev/v1/users', key: null, headers: (c) => c.asAgent, body: { email: 'x@acme.io', display_name: 'x', role: 'admin' }, status: 403, code: 'forbidden' },
  {
    name: "an agent is refused admin actions (a flow)",
    method: 'POST',
    path: (c) => `/api/dev/v1/chatbots/${c.sales.chatbotId}/flows`,
    key: null,
    headers: (c) => c.asAgent,
    body: { name: 'x', type: 'conversation', flow: {} },
    status: 403,
    code: 'forbidden',
  },
  {
    name: "an agent is refused admin actions (an integration)",
    method: 'POST',
    path: (c) => `/api/dev/v1/chatbots/${c.sales.chatbotId}/integrations/web`,
    key: null,
    headers: (c) => c.asAgent,
    body: { name: 'x' },
    status: 403,
    code: 'forbidden',
  },
  { name: "ending someone else's session is not found", method: 'DELETE', path: (c) => `/api/dev/v1/auth/sessions/${c.spareId}`, key: null, headers: (c) => c.asAdmin, status: 404 },
  { name: 'ending a session needs a person', method: 'DELETE', path: (c) => `/api/dev/v1/auth/sessions/${c.spareId}`, status: 400, code: 'session_required' },
  {
    name: 'a person ends one of their other sessions: it stops working at once',
    method: 'DELETE',
    path: (c) => `/api/dev/v1/auth/sessions/${c.spareId}`,
    key: null,
    headers: (c) => c.asAgent,
    status: 204,
    check: async ({ headers }, c) => {
      expect(headers.get('set-cookie')).toBeNull()
      expect((await c.app.call('GET', '/api/dev/v1/auth/me', { key: null, headers: { cookie: c.spare } })).status).toBe(401)
      expect((await c.app.call('GET', '/api/dev/v1/auth/me', { key: null, headers: { cookie: c.agent.cookie } })).status).toBe(200)
    },
  },
])
