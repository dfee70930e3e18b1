import { afterEach, describe, expect, test } from 'bun:test'
import { type TestApp, testApp } from '../support/test-app.ts'
import { activePerson, browser, cookieOf, PASSWORD, tokenOf } from './support/people-context.ts'

const DAY = 24 * 3600 * 1000
const T0 = Date.parse('2026-01-01T00:00:00.000Z')

/** An app whose clock the test moves. */
function appAt() {
  let at = T0
  const app = testApp({}, {}, () => new Date(at).toISOString())
  return { app, travel: (ms: number) => void (at = T0 + ms) }
}

const me = (app: TestApp, cookie: string) => app.call('GET', '/api/dev/v1/auth/me', { key: null, headers: { cookie } })
const maxAge = (setCookie: string | null) => Number(/Max-Age=(\d+)/.exec(setCookie ?? '')?.[1])

describe('a session lasts 14 days from its last use and 30 days at most', () => {
  let app: TestApp
  afterEach(() => app.close())

  test('each use slides the expiry and sends the cookie again with the time left', async () => {
    const clock = appAt()
    app = clock.app
    const { cookie } = await activePerson(app, 'ada@acme.io', 'admin')
    clock.travel(10 * DAY)
    const tenDays = await me(app, cookie)
    expect(tenDays.status).toBe(200)
    expect(tenDays.body.session.expires_at).toBe(new Date(T0 + 24 * DAY).toISOString())
    expect(maxAge(tenDays.headers.get('set-cookie'))).toBe(14 * 24 * 3600)
    expect(cookieOf(tenDays.headers.get('set-cookie'))).toBe(cookie)
    // Within a minute of the last use nothing is rewritten, so no cookie is sent again.
    clock.travel(10 * DAY + 30_000)
    expect((await me(app, cookie)).headers.get('set-cookie')).toBeNull()
    clock.travel(23 * DAY)
    const capped = await me(app, cookie)
    expect(capped.status).toBe(200)
    expect(capped.body.session.expires_at).toBe(new Date(T0 + 30 * DAY).toISOString())
    expect(maxAge(capped.headers.get('set-cookie'))).toBe(7 * 24 * 3600)
    clock.travel(30 * DAY - 1000)
    expect((await me(app, cookie)).status).toBe(200)
    clock.travel(30 * DAY)
    const ended = await me(app, cookie)
    expect(ended.status).toBe(401)
    expect(ended.headers.get('set-cookie')).toContain('Max-Age=0')
  })

  test('14 days without a request end the session', async () => {
    const clock = appAt()
    app = clock.app
    const { cookie } = await activePerson(app, 'ada@acme.io', 'admin')
    clock.travel(14 * DAY - 1000)
    expect((await me(app, cookie)).status).toBe(200)
    // Last seen at 14 days less a second: it ends 14 days later.
    clock.travel(28 * DAY - 1000)
    expect((await me(app, cookie)).status).toBe(401)
    expect(app.db.query('SELECT count(*) AS n FROM sessions').get()).toEqual({ n: 0 })
  })

  test('a password reset ends every earlier session', async () => {
    const clock = appAt()
    app = clock.app
    const ada = await activePerson(app, 'ada@acme.io', 'admin')
    const link = await app.call('POST', `/api/dev/v1/users/${ada.id}/invite-link`, { key: null, headers: browser(ada.cookie) })
    expect(link.body.purpose).toBe('reset')
    const reset = await app.call('POST', '/api/dev/v1/auth/accept-invite', { key: null, body: { token: tokenOf(link.body.url), password: `${PASSWORD}2` } })
    expect(reset.status).toBe(200)
    expect((await me(app, ada.cookie)).status).toBe(401)
    expect((await me(app, cookieOf(reset.headers.get('set-cookie')))).status).toBe(200)
    const old = await app.call('POST', '/api/dev/v1/auth/sign-in', { key: null, body: { email: 'ada@acme.io', password: PASSWORD } })
    expect(old.status).toBe(401)
  })
})

describe('one-time links expire', () => {
  let app: TestApp
  afterEach(() => app.close())

  test('the first admin setup link works for 30 minutes', async () => {
    const clock = appAt()
    app = clock.app
    const workspaceId = (await app.services.workspaces.authenticate(app.key)) as string
    const late = tokenOf((await app.services.people.setupLink(workspaceId)).url)
    const inTime = tokenOf((await app.services.people.setupLink(workspaceId)).url)
    clock.travel(30 * 60_000 - 1000)
    const accepted = await app.call('POST', '/api/dev/v1/auth/accept-invite', { key: null, body: { token: inTime, password: PASSWORD, email: 'root@acme.io' } })
    expect(accepted.status).toBe(200)
    clock.travel(30 * 60_000)
    const refused = await app.call('POST', '/api/dev/v1/auth/accept-invite', { key: null, body: { token: late, password: PASSWORD, email: 'late@acme.io' } })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('invalid_token')
  })

  test('an invite link works for 7 days; a new link replaces the earlier one', async () => {
    const clock = appAt()
    app = clock.app
    const invited = await app.call('POST', '/api/dev/v1/users', { body: { email: 'ivy@acme.io', display_name: 'Ivy', role: 'agent' } })
    const first = tokenOf(invited.body.invite.url)
    const second = tokenOf((await app.call('POST', `/api/dev/v1/users/${invited.body.user.id}/invite-link`)).body.url)
    const accept = (token: string) => app.call('POST', '/api/dev/v1/auth/accept-invite', { key: null, body: { token, password: PASSWORD } })
    expect((await accept(first)).body.code).toBe('invalid_token')
    clock.travel(7 * DAY)
    expect((await accept(second)).body.code).toBe('invalid_token')
    const third = tokenOf((await app.call('POST', `/api/dev/v1/users/${invited.body.user.id}/invite-link`)).body.url)
    expect((await accept(third)).status).toBe(200)
  })
})
