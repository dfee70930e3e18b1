import { afterAll, describe, expect, test } from 'bun:test'
import { ApiError } from '../../server/http/api-error.ts'
import { signInService } from '../../server/people/sign-in.ts'
import { peopleStore } from '../../server/people/store.ts'
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

describe('sign-in attempts are limited per address and per account', () => {
  const app = testApp()
  afterAll(() => app.close())
  let clock = 0
  const limits = signInService({ store: peopleStore(app.db), sessions: app.services.sessions, monotonicMs: () => clock })
  const attempt = (email: string, address: string, password = 'wrong password') => refusal(limits.signIn({ email, password }, { address, userAgent: null }))

  test('ten tries at one account, then it waits a minute per try, from any address, whether the e-mail exists or not', async () => {
    await activePerson(app, 'ada@acme.io', 'admin')
    for (let i = 0; i < 10; i++) expect(await attempt('ada@acme.io', `10.0.0.${i}`)).toMatchObject({ status: 401 })
    expect(await attempt('ADA@acme.io', '10.0.1.1', PASSWORD)).toEqual({ status: 429, detail: 'too many sign-in attempts for this account; retry in 60 s', retryAfter: '60' })
    for (let i = 0; i < 10; i++) expect(await attempt('ghost@acme.io', `10.0.2.${i}`)).toMatchObject({ status: 401 })
    expect(await attempt('ghost@acme.io', '10.0.3.1')).toMatchObject({ status: 429, retryAfter: '60' })
    clock += 60_000
    expect(await attempt('ada@acme.io', '10.0.4.1', PASSWORD)).toBe('signed in')
    expect(await attempt('ada@acme.io', '10.0.4.1', PASSWORD)).toMatchObject({ status: 429 })
  }, 30_000)

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
    name: 'the eleventh quick try at one account is refused, with the right password too',
    method: 'POST',
    path: '/api/dev/v1/auth/sign-in',
    key: null,
    body: { email: 'ada@acme.io', password: PASSWORD },
    status: 200,
    check: async (_, { app }) => {
      for (let i = 0; i < 9; i++) expect((await wrongSignIn(app, 'ada@acme.io')).status).toBe(401)
      const limited = await app.call('POST', '/api/dev/v1/auth/sign-in', { key: null, body: { email: 'ada@acme.io', password: PASSWORD } })
      expect(limited.status).toBe(429)
      expect(limited.body.code).toBe('rate_limited')
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
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
      expect(answer.body.detail).toMatch(/^too many sign-in attempts from this address; retry in \d+ s$/)
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
    },
  },
])
