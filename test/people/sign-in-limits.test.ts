import { sqlitePeopleStore } from '../../server/people/sqlite-store.ts'
import { afterAll, describe, expect, test } from 'bun:test'
import { ApiError } from '../../server/http/api-error.ts'
import { passwordPool } from '../../server/people/password-pool.ts'
import { signInService } from '../../server/people/sign-in.ts'
import { scenarios } from '../support/scenarios.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { activePerson, PASSWORD } from './support/people-context.ts'

async function refusal(attempt: Promise<unknown>): Promise<{ status: number; detail: string; retryAfter?: string } | 'signed in'> {
  try {
    await attempt
    return 'signed in'
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { status: error.status, detail: error.detail, retryAfter: error.headers?.['retry-after'] }
  }
}

describe('sign-in attempts are slowed per (account, address) and per address, never per account alone', () => {
  const app = testApp()
  afterAll(() => app.close())
  let clock = 0
  const limits = signInService({ stores: { people: sqlitePeopleStore(app.db) }, sessions: app.services.sessions, passwords: passwordPool({ concurrency: 2 }), monotonicMs: () => clock })
  const attempt = (email: string, address: string, password = 'wrong password') => refusal(limits.signIn({ email, password }, { address, userAgent: null }))

  test('wrong passwords slow that account down from that address only: the real person signs in from another address at once', async () => {
    await activePerson(app, 'ada@acme.io', 'admin')
    for (let i = 0; i < 10; i++) {
      expect(await attempt('ada@acme.io', '10.0.0.1')).toMatchObject(i < 5 ? { status: 401 } : { status: 429, retryAfter: '60' })
    }
    expect(await attempt('ADA@acme.io', '10.0.0.1', PASSWORD)).toEqual({ status: 429, detail: 'too many sign-in attempts for this account from this address; retry in 60 s', retryAfter: '60' })
    expect(await attempt('ada@acme.io', '10.0.0.2', PASSWORD)).toBe('signed in')
    expect(await attempt('ada@acme.io', '2001:db8:1:2::7', PASSWORD)).toBe('signed in')
  }, 30_000)

  test('each further failure from that address doubles its wait, up to an hour; a success starts over', async () => {
    clock += 3_600_000
    for (let i = 0; i < 5; i++) expect(await attempt('bea@acme.io', '10.0.1.1')).toMatchObject({ status: 401 })
    const waits: string[] = []
    for (let i = 0; i < 8; i++) {
      const refused = await attempt('bea@acme.io', '10.0.1.1')
      waits.push((refused as { retryAfter: string }).retryAfter)
      clock += Number(waits.at(-1)) * 1000
      expect(await attempt('bea@acme.io', '10.0.1.1')).toMatchObject({ status: 401 })
    }
    expect(waits).toEqual(['60', '120', '240', '480', '960', '1920', '3600', '3600'])
    expect(await attempt('bea@acme.io', '10.0.1.1')).toMatchObject({ status: 429, retryAfter: '3600' })
    // An IPv6 client counts by its /64: another address of it waits as well; a success starts over.
    await activePerson(app, 'cy@acme.io', 'agent')
    for (let i = 0; i < 5; i++) expect(await attempt('cy@acme.io', '2001:db8:9:9::1')).toMatchObject({ status: 401 })
    expect(await attempt('cy@acme.io', '2001:db8:9:9::2', PASSWORD)).toMatchObject({ status: 429 })
    clock += 60_000
    expect(await attempt('cy@acme.io', '2001:db8:9:9::2', PASSWORD)).toBe('signed in')
    expect(await attempt('cy@acme.io', '2001:db8:9:9::2')).toMatchObject({ status: 401 })
    expect(await attempt('cy@acme.io', '2001:db8:9:9::2', PASSWORD)).toBe('signed in')
  }, 60_000)

  test('one wrong try a minute from elsewhere never keeps a known person out', async () => {
    clock += 3_600_000
    for (let i = 0; i < 10; i++) await attempt('ada@acme.io', `10.0.2.${i % 2}`)
    for (let minute = 0; minute < 5; minute++) {
      clock += 60_000
      await attempt('ada@acme.io', '10.0.2.2')
    }
    expect(await attempt('ada@acme.io', '10.0.3.1', PASSWORD)).toBe('signed in')
  }, 60_000)

  test('twenty tries from one address, whatever the accounts, then it waits', async () => {
    clock += 3_600_000
    for (let i = 0; i < 20; i++) expect(await attempt(`user${i}@acme.io`, '192.0.2.7')).toMatchObject({ status: 401 })
    expect(await attempt('ada@acme.io', '192.0.2.7', PASSWORD)).toEqual({ status: 429, detail: 'too many sign-in attempts from this address; retry in 1 s', retryAfter: '1' })
    expect(await attempt('ada@acme.io', '192.0.2.8', PASSWORD)).toBe('signed in')
  }, 30_000)
})

async function limitedSetup(app: TestApp) {
  await activePerson(app, 'ada@acme.io', 'admin')
  return { app }
}

const wrongSignIn = (app: TestApp, email: string) =>
  app.call('POST', '/api/dev/v1/auth/sign-in', { key: null, body: { email, password: 'wrong password' } })

scenarios<Awaited<ReturnType<typeof limitedSetup>>>('people: sign-in rate limits answer 429 with Retry-After', limitedSetup, [
  {
    name: 'five wrong tries at one account slow down that address for it, with the right password too',
    method: 'POST',
    path: '/api/dev/v1/auth/sign-in',
    key: null,
    body: { email: 'ada@acme.io', password: PASSWORD },
    status: 200,
    check: async (_, { app }) => {
      for (let i = 0; i < 5; i++) expect((await wrongSignIn(app, 'ada@acme.io')).status).toBe(401)
      const limited = await app.call('POST', '/api/dev/v1/auth/sign-in', { key: null, body: { email: 'ada@acme.io', password: PASSWORD } })
      expect(limited.status).toBe(429)
      expect(limited.body.code).toBe('rate_limited')
      expect(limited.body.detail).toBe('too many sign-in attempts for this account from this address; retry in 60 s')
      expect(limited.headers.get('retry-after')).toBe('60')
      expect(limited.headers.get('set-cookie')).toBeNull()
    },
  },
  {
    name: 'another account is still open, until the address has tried too often',
    method: 'POST',
    path: '/api/dev/v1/auth/sign-in',
    key: null,
    body: { email: 'bob@acme.io', password: 'wrong password' },
    status: 401,
    check: async (_, { app }) => {
      // Sent at once: one by one, on a loaded machine, the bucket would refill as fast as argon2 hashes.
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => wrongSignIn(app, `try${i}@acme.io`)))
      const answer = answers.find((each) => each.status !== 401) ?? answers[0]!
      expect(answer.status).toBe(429)
      expect(answer.body.detail).toMatch(/^too many sign-in attempts from this address( at once)?; retry in \d+ s$/)
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
    },
  },
])
