import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { activePerson, browser, cookieOf, ORIGIN, PASSWORD, signIn, tokenOf } from './support/people-context.ts'

const AUTH = '/api/dev/v1/auth'
const FOURTEEN_DAYS = 14 * 24 * 3600

async function setup(app: TestApp) {
  const admin = await activePerson(app, 'ada@acme.io', 'admin')
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const leaving = await signIn(app, 'ada@acme.io')
  const roaming = [await signIn(app, 'sam@acme.io'), await signIn(app, 'sam@acme.io')]
  const invited = await app.call('POST', '/api/dev/v1/users', { body: { email: 'ivy@acme.io', display_name: 'Ivy', role: 'agent' } })
  const inviteToken = tokenOf(invited.body.invite.url)
  const workspaceId = (await app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: admin.cookie } })).body.workspace_id as string
  const setupToken = tokenOf((await app.services.people.setupLink(workspaceId)).url)
  const chatbotId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Support' } })).body.id as string
  /** Every secret the rows send, which no log line may hold. */
  const secrets = [PASSWORD, admin.cookie, agent.cookie, leaving, ...roaming, inviteToken, setupToken].map((secret) => secret.replace(/^parley_session=/, ''))
  return { app, admin, agent, leaving, roaming, inviteToken, setupToken, chatbotId, secrets }
}

type Ctx = Awaited<ReturnType<typeof setup>>

const wrongAnswer = (body: Record<string, unknown>) => ({ status: body.status, code: body.code, detail: body.detail, title: body.title })

scenarios('people: sign-in, sessions and the Origin check', setup, [
  {
    name: 'signing in answers who is signed in and sets an HttpOnly, SameSite=Lax session cookie for 14 days',
    method: 'POST',
    path: `${AUTH}/sign-in`,
    key: null,
    body: { email: 'ada@acme.io', password: PASSWORD },
    status: 200,
    check: ({ body, headers }) => {
      expect(body.user).toMatchObject({ email: 'ada@acme.io', role: 'admin', status: 'active' })
      expect(Date.parse(body.session.expires_at) - Date.parse(body.session.created_at)).toBe(FOURTEEN_DAYS * 1000)
      const cookie = headers.get('set-cookie') as string
      expect(cookie).toMatch(/^parley_session=ps_[0-9A-Za-z]{40}; /)
      expect(cookie.split('; ').slice(1)).toEqual(['Path=/', `Max-Age=${FOURTEEN_DAYS}`, 'HttpOnly', 'SameSite=Lax'])
    },
  },
  {
    name: 'a signed-in person (an agent too) chooses the language of the app: PATCH /auth/me keeps it, GET /auth/me answers it',
    method: 'PATCH',
    path: `${AUTH}/me`,
    key: null,
    headers: (ctx: Ctx) => browser(ctx.agent.cookie),
    body: { locale: 'es' },
    status: 200,
    check: async ({ body }, ctx) => {
      expect(body.user).toMatchObject({ email: 'sam@acme.io', locale: 'es' })
      expect((await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: ctx.agent.cookie } })).body.user.locale).toBe('es')
      const other = await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: ctx.admin.cookie } })
      expect(other.body.user.locale).toBeNull()
    },
  },
  {
    name: "a language the app does not speak is refused: 422 naming /locale, and the stored choice stays",
    method: 'PATCH',
    path: `${AUTH}/me`,
    key: null,
    headers: (ctx: Ctx) => browser(ctx.agent.cookie),
    body: { locale: 'xx-Nope' },
    status: 422,
    code: 'validation_failed',
    errorPaths: ['/locale'],
    check: async (_result, ctx) => {
      expect((await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: ctx.agent.cookie } })).body.user.locale).toBe('es')
    },
  },
  {
    name: 'null goes back to following the browser',
    method: 'PATCH',
    path: `${AUTH}/me`,
    key: null,
    headers: (ctx: Ctx) => browser(ctx.agent.cookie),
    body: { locale: null },
    status: 200,
    check: ({ body }) => expect(body.user.locale).toBeNull(),
  },
  { name: 'PATCH /auth/me refuses an unknown field', method: 'PATCH', path: `${AUTH}/me`, key: null, headers: (ctx: Ctx) => browser(ctx.agent.cookie), body: { role: 'admin' }, status: 422, errorPaths: ['/role'] },
  { name: 'PATCH /auth/me is for a person, not an API key: 400 session_required', method: 'PATCH', path: `${AUTH}/me`, body: { locale: 'es' }, status: 400, code: 'session_required' },
  { name: 'PATCH /auth/me from a foreign origin is refused: 403', method: 'PATCH', path: `${AUTH}/me`, key: null, headers: (ctx: Ctx) => browser(ctx.agent.cookie, 'https://evil.example'), body: { locale: 'es' }, status: 403 },
  { name: 'the e-mail matches whatever its case', method: 'POST', path: `${AUTH}/sign-in`, key: null, body: { email: 'ADA@Acme.io', password: PASSWORD }, status: 200 },
  {
    name: 'a wrong password and an unknown e-mail get the very same 401',
    method: 'POST',
    path: `${AUTH}/sign-in`,
    key: null,
    body: { email: 'ada@acme.io', password: 'not the password' },
    status: 401,
    code: 'invalid_credentials',
    check: async ({ body, headers }, ctx) => {
      expect(headers.get('set-cookie')).toBeNull()
      const unknown = await ctx.app.call('POST', `${AUTH}/sign-in`, { key: null, body: { email: 'nobody@acme.io', password: 'not the password' } })
      expect(wrongAnswer(unknown.body)).toEqual(wrongAnswer(body))
    },
  },
  {
    name: 'an invited person without a password gets the same 401',
    method: 'POST',
    path: `${AUTH}/sign-in`,
    key: null,
    body: { email: 'ivy@acme.io', password: PASSWORD },
    status: 401,
    code: 'invalid_credentials',
  },
  { name: 'sign-in needs a password', method: 'POST', path: `${AUTH}/sign-in`, key: null, body: { email: 'ada@acme.io' }, status: 422, errorPaths: ['/password'] },
  {
    name: 'sign-in from a foreign page (its Origin) is refused',
    method: 'POST',
    path: `${AUTH}/sign-in`,
    key: null,
    headers: { origin: 'https://evil.example' },
    body: { email: 'ada@acme.io', password: PASSWORD },
    status: 403,
    code: 'origin_refused',
  },
  { name: 'sign-in from Parley\'s own page is fine', method: 'POST', path: `${AUTH}/sign-in`, key: null, headers: { origin: ORIGIN }, body: { email: 'sam@acme.io', password: PASSWORD }, status: 200 },
  {
    name: 'me answers the person of the cookie',
    method: 'GET',
    path: `${AUTH}/me`,
    key: null,
    headers: (ctx) => ({ cookie: ctx.agent.cookie }),
    status: 200,
    check: ({ body }, ctx) => {
      expect(body.user).toMatchObject({ id: ctx.agent.id, role: 'agent' })
      expect(typeof body.session.expires_at).toBe('string')
    },
  },
  { name: 'me with an API key: there is no person', method: 'GET', path: `${AUTH}/me`, status: 400, code: 'session_required' },
  { name: 'me with neither key nor cookie is 401', method: 'GET', path: `${AUTH}/me`, key: null, status: 401, code: 'unauthorized' },
  {
    name: 'an unknown session cookie is 401 and the browser is told to forget it',
    method: 'GET',
    path: `${AUTH}/me`,
    key: null,
    headers: { cookie: 'parley_session=ps_0000000000000000000000000000000000000000' },
    status: 401,
    check: ({ headers }) => expect(headers.get('set-cookie')).toBe('parley_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'),
  },
  {
    name: 'where you are signed in lists your sessions and marks this one',
    method: 'GET',
    path: `${AUTH}/sessions`,
    key: null,
    headers: (ctx) => ({ cookie: ctx.roaming[0] as string, 'user-agent': 'DeskTest/1' }),
    status: 200,
    check: ({ body }) => {
      expect(body.items.length).toBeGreaterThanOrEqual(3)
      expect(body.items.filter((item: { current: boolean }) => item.current)).toHaveLength(1)
      expect(JSON.stringify(body)).not.toMatch(/ps_|hash/)
    },
  },
  {
    name: 'a change with the session cookie and our Origin works',
    method: 'POST',
    path: '/api/dev/v1/chatbots',
    key: null,
    headers: (ctx) => browser(ctx.admin.cookie),
    body: { name: 'Made by Ada' },
    status: 201,
  },
  {
    name: 'a change with the session cookie and no Origin is refused',
    method: 'POST',
    path: '/api/dev/v1/chatbots',
    key: null,
    headers: (ctx) => ({ cookie: ctx.admin.cookie }),
    body: { name: 'Forged' },
    status: 403,
    code: 'origin_refused',
  },
  {
    name: 'a change with the session cookie from another origin is refused',
    method: 'PATCH',
    path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}`,
    key: null,
    headers: (ctx) => browser(ctx.admin.cookie, 'http://parley.test.evil.example'),
    body: { name: 'Forged' },
    status: 403,
    code: 'origin_refused',
  },
  {
    name: 'a delete with the session cookie from another origin is refused',
    method: 'DELETE',
    path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}`,
    key: null,
    headers: (ctx) => browser(ctx.admin.cookie, 'null'),
    status: 403,
    code: 'origin_refused',
  },
  { name: 'reading with the session cookie needs no Origin', method: 'GET', path: '/api/dev/v1/chatbots', key: null, headers: (ctx) => ({ cookie: ctx.admin.cookie }), status: 200 },
  { name: 'an API key needs no Origin to change things', method: 'POST', path: '/api/dev/v1/chatbots', body: { name: 'By a machine' }, status: 201 },
  {
    name: 'an API key beside a cookie is a machine: no Origin check, no person',
    method: 'GET',
    path: `${AUTH}/me`,
    headers: (ctx) => ({ cookie: ctx.admin.cookie }),
    status: 400,
    code: 'session_required',
  },
  { name: 'an agent may not create a chatbot', method: 'POST', path: '/api/dev/v1/chatbots', key: null, headers: (ctx) => browser(ctx.agent.cookie), body: { name: 'No' }, status: 403, code: 'forbidden' },
  { name: 'an agent may not delete a chatbot', method: 'DELETE', path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}`, key: null, headers: (ctx) => browser(ctx.agent.cookie), status: 403, code: 'forbidden' },
  {
    name: 'an agent may not write flows',
    method: 'POST',
    path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}/flows`,
    key: null,
    headers: (ctx) => browser(ctx.agent.cookie),
    body: { name: 'f', type: 'conversation', definition: {} },
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'an agent may not write integrations',
    method: 'POST',
    path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}/integrations/web`,
    key: null,
    headers: (ctx) => browser(ctx.agent.cookie),
    body: {},
    status: 403,
    code: 'forbidden',
  },
  { name: 'an agent reads chatbots and flows', method: 'GET', path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}/flows`, key: null, headers: (ctx) => ({ cookie: ctx.agent.cookie }), status: 200 },
  {
    name: 'an agent may act on conversations (an unknown one is 404, not 403)',
    method: 'POST',
    path: (ctx) => `/api/dev/v1/chatbots/${ctx.chatbotId}/conversations/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D/messages`,
    key: null,
    headers: (ctx) => browser(ctx.agent.cookie),
    body: { text: 'Hello' },
    status: 404,
  },
  { name: 'signing out needs our Origin', method: 'POST', path: `${AUTH}/sign-out`, key: null, headers: (ctx) => ({ cookie: ctx.leaving }), status: 403, code: 'origin_refused' },
  {
    name: 'signing out ends the session at once and clears the cookie',
    method: 'POST',
    path: `${AUTH}/sign-out`,
    key: null,
    headers: (ctx) => browser(ctx.leaving),
    status: 204,
    check: async ({ headers }, ctx) => {
      expect(headers.get('set-cookie')).toBe('parley_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax')
      expect((await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: ctx.leaving } })).status).toBe(401)
      expect((await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: ctx.admin.cookie } })).status).toBe(200)
    },
  },
  { name: 'signing out with an API key: there is no session', method: 'POST', path: `${AUTH}/sign-out`, status: 400, code: 'session_required' },
  {
    name: 'signing out everywhere ends every session of the person',
    method: 'POST',
    path: `${AUTH}/sign-out-everywhere`,
    key: null,
    headers: (ctx) => browser(ctx.roaming[0] as string),
    status: 204,
    check: async (_, ctx) => {
      for (const cookie of [ctx.agent.cookie, ...ctx.roaming]) {
        expect((await ctx.app.call('GET', '/api/dev/v1/chatbots', { key: null, headers: { cookie } })).status).toBe(401)
      }
      expect((await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie: ctx.admin.cookie } })).status).toBe(200)
    },
  },
  {
    name: "a link's page asks what the link is for before showing a form: an invite names the e-mail the person will sign in with, and spends nothing",
    method: 'POST',
    path: `${AUTH}/link`,
    key: null,
    headers: { origin: ORIGIN },
    body: (ctx: Ctx) => ({ token: ctx.inviteToken }),
    status: 200,
    check: async ({ body }, ctx) => {
      expect(body).toEqual({ purpose: 'invite', email: 'ivy@acme.io', expires_at: expect.any(String) })
      const setupLink = await ctx.app.call('POST', `${AUTH}/link`, { key: null, headers: { origin: ORIGIN }, body: { token: ctx.setupToken } })
      expect(setupLink.body).toEqual({ purpose: 'setup', email: null, expires_at: expect.any(String) })
    },
  },
  { name: 'asking about an unknown link answers as accepting it would', method: 'POST', path: `${AUTH}/link`, key: null, headers: { origin: ORIGIN }, body: { token: 'pt_nope' }, status: 400, code: 'invalid_token' },
  { name: 'asking about a link from another site is refused', method: 'POST', path: `${AUTH}/link`, key: null, headers: { origin: 'https://evil.example' }, body: { token: 'pt_nope' }, status: 403, code: 'origin_refused' },
  { name: 'an unknown token is refused', method: 'POST', path: `${AUTH}/accept-invite`, key: null, body: { token: 'pt_nope', password: PASSWORD }, status: 400, code: 'invalid_token' },
  { name: 'a short password is refused', method: 'POST', path: `${AUTH}/accept-invite`, key: null, body: { token: 'pt_x', password: 'short' }, status: 422, errorPaths: ['/password'] },
  {
    name: 'an invite link sets the password and signs the person in',
    method: 'POST',
    path: `${AUTH}/accept-invite`,
    key: null,
    body: (ctx: Ctx) => ({ token: ctx.inviteToken, password: `${PASSWORD}!`, display_name: 'Ivy Chen' }),
    status: 200,
    check: async ({ body, headers }, ctx) => {
      expect(body.user).toMatchObject({ email: 'ivy@acme.io', display_name: 'Ivy Chen', status: 'active', role: 'agent' })
      const cookie = cookieOf(headers.get('set-cookie'))
      expect((await ctx.app.call('GET', `${AUTH}/me`, { key: null, headers: { cookie } })).body.user.email).toBe('ivy@acme.io')
    },
  },
  { name: 'an invite link works once', method: 'POST', path: `${AUTH}/accept-invite`, key: null, body: (ctx: Ctx) => ({ token: ctx.inviteToken, password: PASSWORD }), status: 400, code: 'invalid_token' },
  { name: 'a used link says so when its page asks, before any form', method: 'POST', path: `${AUTH}/link`, key: null, headers: { origin: ORIGIN }, body: (ctx: Ctx) => ({ token: ctx.inviteToken }), status: 400, code: 'invalid_token' },
  { name: 'a setup link needs the first admin\'s e-mail (and is not spent by the mistake)', method: 'POST', path: `${AUTH}/accept-invite`, key: null, body: (ctx: Ctx) => ({ token: ctx.setupToken, password: PASSWORD }), status: 422, errorPaths: ['/email'] },
  {
    name: 'a setup link creates an admin and signs them in',
    method: 'POST',
    path: `${AUTH}/accept-invite`,
    key: null,
    body: (ctx: Ctx) => ({ token: ctx.setupToken, password: PASSWORD, email: 'root@acme.io', display_name: 'Root' }),
    status: 200,
    check: ({ body }) => expect(body.user).toMatchObject({ email: 'root@acme.io', role: 'admin', status: 'active' }),
  },
  {
    name: 'links that work are never slowed, wrong ones are: after 20 wrong links from one address, even a right one waits (429, Retry-After)',
    method: 'POST',
    path: `${AUTH}/link`,
    key: null,
    headers: { origin: ORIGIN },
    body: { token: 'pt_wrong-0' },
    status: 400,
    code: 'invalid_token',
    check: async (_, ctx) => {
      // The rows above sent a few wrong links from this address already: 20 in all are answered.
      let answered = 1
      for (;;) {
        const wrong = await ctx.app.call('POST', `${AUTH}/link`, { key: null, headers: { origin: ORIGIN }, body: { token: `pt_wrong-${answered}` } })
        if (wrong.status === 429) break
        expect(wrong.status).toBe(400)
        answered += 1
        expect(answered).toBeLessThanOrEqual(20)
      }
      expect(answered).toBeGreaterThan(10)
      const invited = await ctx.app.call('POST', '/api/dev/v1/users', { body: { email: 'late@acme.io', display_name: 'Late', role: 'agent' } })
      const waits = await ctx.app.call('POST', `${AUTH}/link`, { key: null, headers: { origin: ORIGIN }, body: { token: tokenOf(invited.body.invite.url) } })
      expect(waits.status).toBe(429)
      expect(Number(waits.headers.get('retry-after'))).toBeGreaterThan(0)
      const accepting = await ctx.app.call('POST', `${AUTH}/accept-invite`, { key: null, body: { token: tokenOf(invited.body.invite.url), password: PASSWORD } })
      expect(accepting.status).toBe(429)
    },
  },
  {
    name: 'no log line holds a password, a one-time token or a session id',
    method: 'GET',
    path: '/api/dev/v1/users',
    status: 200,
    check: async (_, ctx) => {
      await Bun.sleep(100)
      // The binary's output arrives in chunks of several lines when requests are quick: count lines.
      const log = ctx.app.logLines.join('\n')
      expect(log.split('\n').filter(Boolean).length).toBeGreaterThan(10)
      for (const secret of ctx.secrets) expect(log).not.toContain(secret)
      expect(log).not.toMatch(/ps_[0-9A-Za-z]{40}|pt_[0-9A-Za-z]{40}|argon2/)
    },
  },
])

async function secureSetup(app: TestApp) {
  return { app, admin: await activePerson(app, 'ada@acme.io', 'admin') }
}

scenarios<Awaited<ReturnType<typeof secureSetup>>>(
  'people: over https the session cookie is Secure and changes must come from the https origin',
  secureSetup,
  [
    {
      name: 'sign-in sets a Secure cookie',
      method: 'POST',
      path: `${AUTH}/sign-in`,
      key: null,
      body: { email: 'ada@acme.io', password: PASSWORD },
      status: 200,
      check: ({ headers }) => expect((headers.get('set-cookie') as string).split('; ').slice(1)).toEqual(['Path=/', `Max-Age=${FOURTEEN_DAYS}`, 'HttpOnly', 'SameSite=Lax', 'Secure']),
    },
    { name: 'the http origin of the same host is foreign', method: 'POST', path: '/api/dev/v1/chatbots', key: null, headers: (ctx) => browser(ctx.admin.cookie, 'http://desk.acme.io'), body: { name: 'x' }, status: 403, code: 'origin_refused' },
    { name: 'the https origin is ours', method: 'POST', path: '/api/dev/v1/chatbots', key: null, headers: (ctx) => browser(ctx.admin.cookie, 'https://desk.acme.io'), body: { name: 'x' }, status: 201 },
  ],
  { PARLEY_PUBLIC_URL: 'https://desk.acme.io' },
)
