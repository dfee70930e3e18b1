import { describe, expect, test } from 'bun:test'
import {
  type AttemptOutcome,
  judgeAttempt,
  MAX_ATTEMPTS,
  MAX_ATTEMPTS_CLIENT_ERROR,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  retryDelay,
} from '../../server/outbox/retry-policy.ts'

const middle = () => 0.5
const answer = (status: number, retryAfterMs: number | null = null): AttemptOutcome => ({ kind: 'response', status, retryAfterMs, snippet: '' })

describe('retry schedule', () => {
  test('waits 10 s, 1 min, 5 min, 30 min, 2 h, 6 h and 12 h, then gives up', () => {
    const waits = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelay(i + 1, middle))
    expect(waits).toEqual([10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, null])
  })

  test('jitter stays within a fifth of each wait, both ways', () => {
    for (const [i, base] of RETRY_DELAYS_MS.entries()) {
      expect(retryDelay(i + 1, () => 0)).toBe(Math.round(base * 0.8))
      expect(retryDelay(i + 1, () => 0.999_999)).toBeLessThanOrEqual(Math.round(base * 1.2))
    }
  })
})

describe('judging an attempt', () => {
  test.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(judgeAttempt(answer(status), 1, middle)).toEqual({ kind: 'delivered', statusCode: status, receipt: null, note: null })
  })

  test("a receiver's receipt (its id for what it accepted) and the sender's note are kept with the delivery", () => {
    const outcome: AttemptOutcome = { kind: 'response', status: 200, retryAfterMs: null, snippet: '', receipt: 'wamid.HBgL', note: 'sent as text' }
    expect(judgeAttempt(outcome, 1, middle)).toEqual({ kind: 'delivered', statusCode: 200, receipt: 'wamid.HBgL', note: 'sent as text' })
  })

  test('a receiver that throttles in its own words (HTTP 400 with a rate-limit error) is tried again on the full schedule', () => {
    const throttled: AttemptOutcome = { kind: 'throttled', status: 400, retryAfterMs: null, error: 'Graph API error 130429: Rate limit hit' }
    expect(judgeAttempt(throttled, 1, middle)).toEqual({ kind: 'retry', delayMs: 10_000, statusCode: 400, error: 'Graph API error 130429: Rate limit hit' })
    expect(judgeAttempt(throttled, MAX_ATTEMPTS - 1, middle)).toMatchObject({ kind: 'retry', delayMs: 43_200_000 })
    expect(judgeAttempt({ ...throttled, retryAfterMs: 600_000 }, 1, middle)).toMatchObject({ kind: 'retry', delayMs: 600_000 })
    expect(judgeAttempt(throttled, MAX_ATTEMPTS, middle)).toMatchObject({ kind: 'failed', statusCode: 400, error: `gave up after ${MAX_ATTEMPTS} attempts; the last: Graph API error 130429: Rate limit hit` })
  })

  test('a rejection that asking again will not change fails at once, with the reason', () => {
    const rejected: AttemptOutcome = { kind: 'rejected', status: 400, error: 'Graph API error 131047: Re-engagement message' }
    expect(judgeAttempt(rejected, 1, middle)).toEqual({ kind: 'failed', statusCode: 400, error: 'Graph API error 131047: Re-engagement message' })
  })

  test.each([408, 429, 500, 502, 503, 504])('%i is tried again on the full schedule', (status) => {
    expect(judgeAttempt(answer(status), 1, middle)).toMatchObject({ kind: 'retry', delayMs: 10_000, statusCode: status })
    expect(judgeAttempt(answer(status), MAX_ATTEMPTS - 1, middle)).toMatchObject({ kind: 'retry', delayMs: 43_200_000 })
    expect(judgeAttempt(answer(status), MAX_ATTEMPTS, middle)).toMatchObject({ kind: 'failed', statusCode: status })
  })

  test.each([301, 302, 400, 401, 403, 404, 410, 422])(`%i gets ${MAX_ATTEMPTS_CLIENT_ERROR} attempts in all, then fails`, (status) => {
    expect(judgeAttempt(answer(status), MAX_ATTEMPTS_CLIENT_ERROR - 1, middle)).toMatchObject({ kind: 'retry' })
    const verdict = judgeAttempt(answer(status), MAX_ATTEMPTS_CLIENT_ERROR, middle)
    expect(verdict).toMatchObject({ kind: 'failed', statusCode: status })
    expect((verdict as { error: string }).error).toContain(`gave up after ${MAX_ATTEMPTS_CLIENT_ERROR} attempts; the last: HTTP ${status}`)
  })

  test('a redirect is reported as not followed', () => {
    expect(judgeAttempt(answer(302), 1, middle)).toMatchObject({ error: 'HTTP 302 (redirects are not followed)' })
  })

  test("the receiver's answer is quoted", () => {
    const outcome: AttemptOutcome = { kind: 'response', status: 500, retryAfterMs: null, snippet: 'database is down' }
    expect(judgeAttempt(outcome, 1, middle)).toMatchObject({ error: 'HTTP 500: database is down' })
  })

  test('a longer Retry-After on 429 or 503 is honoured, up to the longest wait', () => {
    expect(judgeAttempt(answer(429, 120_000), 1, middle)).toMatchObject({ kind: 'retry', delayMs: 120_000 })
    expect(judgeAttempt(answer(503, 1_000), 3, middle)).toMatchObject({ kind: 'retry', delayMs: 300_000 })
    expect(judgeAttempt(answer(429, 10 * 86_400_000), 1, middle)).toMatchObject({ kind: 'retry', delayMs: 43_200_000 })
  })

  test('Retry-After on a 4xx that is not 429 is not a reason to wait longer', () => {
    expect(judgeAttempt(answer(404, 3_600_000), 1, middle)).toMatchObject({ kind: 'retry', delayMs: 10_000 })
  })

  test('timeouts, connection errors and unresolved names are tried again', () => {
    expect(judgeAttempt({ kind: 'timeout', afterMs: 10_000 }, 1, middle)).toMatchObject({ kind: 'retry', error: 'no answer within 10 s' })
    expect(judgeAttempt({ kind: 'network', error: 'ConnectionRefused' }, 2, middle)).toMatchObject({ kind: 'retry', delayMs: 60_000, error: 'could not connect: ConnectionRefused' })
    expect(judgeAttempt({ kind: 'unresolved', reason: 'the host x.test could not be resolved (ENOTFOUND)' }, 1, middle)).toMatchObject({ kind: 'retry' })
    expect(judgeAttempt({ kind: 'timeout', afterMs: 10_000 }, MAX_ATTEMPTS, middle)).toMatchObject({ kind: 'failed' })
  })

  test('a refused address and a vanished target fail at once', () => {
    expect(judgeAttempt({ kind: 'refused', reason: 'points to 10.0.0.7, a private address' }, 1, middle)).toEqual({
      kind: 'failed',
      statusCode: null,
      error: 'webhook_url points to 10.0.0.7, a private address',
    })
    expect(judgeAttempt({ kind: 'gone', reason: 'the integration was deleted' }, 1, middle)).toMatchObject({ kind: 'failed', error: 'the integration was deleted' })
  })

  test('an attempt cut short by a shutdown is due again at once', () => {
    expect(judgeAttempt({ kind: 'interrupted' }, 5, middle)).toMatchObject({ kind: 'retry', delayMs: 0 })
  })
})

describe('Retry-After', () => {
  const now = Date.parse('2026-01-15T09:00:00.000Z')
  test.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Thu, 15 Jan 2026 09:05:00 GMT', 300_000],
    ['Thu, 15 Jan 2026 08:00:00 GMT', 0],
    ['soon', null],
    ['-5', null],
    [null, null],
  ])('%p is %p ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms)
  })
})
