import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { activePerson, browser } from './support/people-context.ts'

const U = '/api/dev/v1/users'

async function setup(app: TestApp) {
  const admin = await activePerson(app, 'ada@acme.io', 'admin')
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const promoted = await activePerson(app, 'bea@acme.io', 'agent')
  const invited = (await app.call('POST', U, { body: { email: 'ivy@acme.io', display_name: 'Ivy', role: 'agent' } })).body.user.id as string
  const otherKey = app.otherWorkspaceKey()
  const stranger = await activePerson(app, 'olga@other.io', 'admin', otherKey)
  const chatbotId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Support' } })).body.id as string
  return { app, admin, agent, promoted, invited, otherKey, stranger, chatbotId }
}

scenarios('people: users, invites and roles', setup, [
  {
    name: 'an API key lists the people of its workspace only, oldest first',
    method: 'GET',
    path: U,
    status: 200,
    check: ({ body }) => {
      expect(body.total).toBe(4)
      expect(body.items.map((user: { email: string }) => user.email)).toEqual(['ada@acme.io', 'sam@acme.io', 'bea@acme.io', 'ivy@acme.io'])
      expect(body.items.map((user: { status: string }) => user.status)).toEqual(['active', 'active', 'active', 'invited'])
      expect(JSON.stringify(body)).not.toContain('password')
    },
  },
  { name: 'an admin lists people with the session cookie', method: 'GET', path: U, key: null, headers: (ctx) => browser(ctx.admin.cookie), status: 200 },
  {
    name: 'an agent may list people (to assign conversations)',
    method: 'GET',
    path: U,
    key: null,
    headers: (ctx) => browser(ctx.agent.cookie),
    status: 200,
  },
  {
    name: 'an admin invites a person: 201, status invited, and a one-time link on the public URL',
    method: 'POST',
    path: U,
    key: null,
    headers: (ctx) => browser(ctx.admin.cookie),
    body: { email: 'Kim@Acme.IO', display_name: 'Kim', role: 'agent' },
    status: 201,
    check: ({ body }) => {
      expect(body.user).toMatchObject({ email: 'Kim@acme.io', display_name: 'Kim', role: 'agent', status: 'invited', updated_at: null })
      expect(body.invite.purpose).toBe('invite')
      expect(body.invite.url).toMatch(/^http:\/\/parley\.test\/app\/invite#token=pt_[0-9A-Za-z]{40}$/)
      expect(Date.parse(body.invite.expires_at) - Date.parse(body.user.created_at)).toBe(7 * 24 * 3600 * 1000)
    },
  },
  {
    name: 'an agent may not invite people: 403 forbidden',
    method: 'POST',
    path: U,
    key: null,
    headers: (ctx) => browser(ctx.agent.cookie),
    body: { email: 'lee@acme.io', display_name: 'Lee', role: 'admin' },
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'an e-mail taken in the workspace, in another case, is a conflict',
    method: 'POST',
    path: U,
    body: { email: 'SAM@acme.io', display_name: 'Sam again', role: 'agent' },
    status: 409,
    code: 'email_taken',
  },
  {
    name: 'the same e-mail in another workspace is fine',
    method: 'POST',
    path: U,
    key: (ctx) => ctx.otherKey,
    body: { email: 'sam@acme.io', display_name: 'Sam elsewhere', role: 'agent' },
    status: 201,
  },
  { name: 'a malformed e-mail is refused', method: 'POST', path: U, body: { email: 'sam', display_name: 'S', role: 'agent' }, status: 422, errorPaths: ['/email'] },
  { name: 'an unknown role is refused', method: 'POST', path: U, body: { email: 'x@acme.io', display_name: 'X', role: 'owner' }, status: 422, errorPaths: ['/role'] },
  { name: 'a display name is required', method: 'POST', path: U, body: { email: 'x@acme.io', role: 'agent' }, status: 422, errorPaths: ['/display_name'] },
  { name: 'an unknown field is refused', method: 'POST', path: U, body: { email: 'x@acme.io', display_name: 'X', role: 'agent', password: 'x' }, status: 422, errorPaths: ['/password'] },
  { name: "another workspace's person is not found", method: 'GET', path: (ctx) => `${U}/${ctx.stranger.id}`, status: 404, code: 'not_found' },
  { name: "another workspace's person cannot be changed", method: 'PATCH', path: (ctx) => `${U}/${ctx.stranger.id}`, body: { role: 'agent' }, status: 404 },
  { name: "another workspace's person gets no link", method: 'POST', path: (ctx) => `${U}/${ctx.stranger.id}/invite-link`, status: 404 },
  { name: 'an unknown id is not found', method: 'GET', path: `${U}/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D`, status: 404 },
  {
    name: 'an admin makes an agent admin',
    method: 'PATCH',
    path: (ctx) => `${U}/${ctx.promoted.id}`,
    key: null,
    headers: (ctx) => browser(ctx.admin.cookie),
    body: { role: 'admin', display_name: 'Bea Admin' },
    status: 200,
    check: ({ body }) => expect(body).toMatchObject({ role: 'admin', display_name: 'Bea Admin', status: 'active' }),
  },
  {
    name: 'an agent may not change roles, even their own',
    method: 'PATCH',
    path: (ctx) => `${U}/${ctx.agent.id}`,
    key: null,
    headers: (ctx) => browser(ctx.agent.cookie),
    body: { role: 'admin' },
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'an invited person gets a new invite link; the earlier one stops working',
    method: 'POST',
    path: (ctx) => `${U}/${ctx.invited}/invite-link`,
    status: 201,
    check: ({ body }) => {
      expect(body.purpose).toBe('invite')
      expect(body.url).toMatch(/\/app\/invite#token=pt_/)
    },
  },
  {
    name: 'an active person gets a password reset link, valid 24 hours',
    method: 'POST',
    path: (ctx) => `${U}/${ctx.agent.id}/invite-link`,
    status: 201,
    check: ({ body }) => {
      expect(body.purpose).toBe('reset')
      expect(body.url).toMatch(/^http:\/\/parley\.test\/app\/reset-password#token=pt_/)
    },
  },
  { name: 'an agent may not make links', method: 'POST', path: (ctx) => `${U}/${ctx.invited}/invite-link`, key: null, headers: (ctx) => browser(ctx.agent.cookie), status: 403, code: 'forbidden' },
  { name: 'demoting Bea leaves Ada as the last admin', method: 'PATCH', path: (ctx) => `${U}/${ctx.promoted.id}`, body: { role: 'agent' }, status: 200 },
  {
    name: 'the last active admin cannot be made an agent',
    method: 'PATCH',
    path: (ctx) => `${U}/${ctx.admin.id}`,
    body: { role: 'agent' },
    status: 409,
    code: 'last_admin',
  },
  { name: 'the last active admin cannot be disabled', method: 'PATCH', path: (ctx) => `${U}/${ctx.admin.id}`, body: { disabled: true }, status: 409, code: 'last_admin' },
  {
    name: 'disabling a person signs them out at once',
    method: 'PATCH',
    path: (ctx) => `${U}/${ctx.promoted.id}`,
    body: { disabled: true },
    status: 200,
    check: async ({ body }, ctx) => {
      expect(body.status).toBe('disabled')
      const after = await ctx.app.call('GET', U, { key: null, headers: { cookie: ctx.promoted.cookie } })
      expect(after.status).toBe(401)
      expect(after.body.detail).toBe('the session has ended; sign in again')
    },
  },
  { name: 'a disabled person gets no link', method: 'POST', path: (ctx) => `${U}/${ctx.promoted.id}/invite-link`, status: 409, code: 'user_disabled' },
  {
    name: 'enabling a person again keeps them signed out until they sign in',
    method: 'PATCH',
    path: (ctx) => `${U}/${ctx.promoted.id}`,
    body: { disabled: false },
    status: 200,
    check: ({ body }) => expect(body.status).toBe('active'),
  },
  { name: 'a role must be admin or agent', method: 'PATCH', path: (ctx) => `${U}/${ctx.agent.id}`, body: { role: 'root' }, status: 422, errorPaths: ['/role'] },
  { name: 'a display name cannot be empty', method: 'PATCH', path: (ctx) => `${U}/${ctx.agent.id}`, body: { display_name: '' }, status: 422, errorPaths: ['/display_name'] },
])
