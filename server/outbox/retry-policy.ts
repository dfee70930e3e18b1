/** How one attempt to send a delivery ended. */
export type AttemptOutcome =
  /**
   * The receiver answered; `snippet` is the start of its body, for the delivery log, and
   * `receipt` the receiver's own id for what it accepted, when it gives one; `note` how it
   * was taken, when that is worth telling (a fallback the sender had to use).
   */
  | { kind: 'response'; status: number; retryAfterMs: number | null; snippet: string; receipt?: string | null; note?: string }
  /** The receiver asked to slow down in its own words (an API's rate-limit error): tried again on the schedule. */
  | { kind: 'throttled'; status: number; retryAfterMs: number | null; error: string }
  /** The receiver refused it for a reason that asking again will not change: failed at once. */
  | { kind: 'rejected'; status: number | null; error: string }
  | { kind: 'timeout'; afterMs: number }
  /** No answer: refused connection, reset, TLS failure. */
  | { kind: 'network'; error: string }
  /** The host name did not resolve (now): DNS can recover, so it is tried again. */
  | { kind: 'unresolved'; reason: string }
  /** The address is not one Parley may reach (SSRF): asking again will not change that. */
  | { kind: 'refused'; reason: string }
  /** There is nowhere to send it any more (the integration was deleted or switched off). */
  | { kind: 'gone'; reason: string }
  /** Cut short by a shutdown: sent again by the next process. */
  | { kind: 'interrupted' }

export type Verdict =
  | { kind: 'delivered'; statusCode: number; receipt: string | null; note: string | null }
  | { kind: 'retry'; delayMs: number; statusCode: number | null; error: string }
  | { kind: 'failed'; statusCode: number | null; error: string }

/** Waits after the 1st, 2nd, ... failed attempt: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h. */
export const RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000]

/** The first attempt and one per delay: then the delivery has failed (about 21 hours after it was due). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/**
 * A receiver that answers 3xx or 4xx (other than 408 and 429) is most likely misconfigured
 * (a wrong path, a check against an old secret). It gets this many attempts in all, so that
 * a deploy in progress is survived, but a bad URL does not collect a day of retries.
 */
export const MAX_ATTEMPTS_CLIENT_ERROR = 3

/** Each wait is stretched or shrunk by up to this share, so that receivers coming back are not hit by a wave. */
const JITTER = 0.2

/**
 * What to do after attempt number `attempts` (1 for the first) ended with `outcome`:
 * 2xx is delivered; timeouts, connection errors, DNS failures, 408, 429, 5xx and a
 * receiver's own throttling are tried again on the schedule (a longer Retry-After is
 * honoured, up to the longest wait); other answers get MAX_ATTEMPTS_CLIENT_ERROR attempts;
 * refused addresses, vanished targets and a receiver's final rejection fail at once.
 */
export function judgeAttempt(outcome: AttemptOutcome, attempts: number, random: () => number = Math.random): Verdict {
  switch (outcome.kind) {
    case 'response': {
      const { status } = outcome
      if (status >= 200 && status < 300) return { kind: 'delivered', statusCode: status, receipt: outcome.receipt ?? null, note: outcome.note ?? null }
      const error = describeAnswer(outcome.status, outcome.snippet)
      const transient = status === 408 || status === 429 || status >= 500
      const limit = transient ? MAX_ATTEMPTS : MAX_ATTEMPTS_CLIENT_ERROR
      return later(attempts, limit, random, status, error, transient ? outcome.retryAfterMs : null)
    }
    case 'throttled':
      return later(attempts, MAX_ATTEMPTS, random, outcome.status, outcome.error, outcome.retryAfterMs)
    case 'rejected':
      return { kind: 'failed', statusCode: outcome.status, error: outcome.error }
    case 'timeout':
      return later(attempts, MAX_ATTEMPTS, random, null, `no answer within ${outcome.afterMs / 1000} s`)
    case 'network':
      return later(attempts, MAX_ATTEMPTS, random, null, `could not connect: ${outcome.error}`)
    case 'unresolved':
      return later(attempts, MAX_ATTEMPTS, random, null, `webhook_url ${outcome.reason}`)
    case 'refused':
      return { kind: 'failed', statusCode: null, error: `webhook_url ${outcome.reason}` }
    case 'gone':
      return { kind: 'failed', statusCode: null, error: outcome.reason }
    case 'interrupted':
      return { kind: 'retry', delayMs: 0, statusCode: null, error: 'interrupted by a shutdown; sent again on the next start' }
  }
}

/** The wait after `attempts` failed attempts, with jitter; null once there is none left. */
export function retryDelay(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1]
  if (base === undefined) return null
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()))
}

function later(attempts: number, limit: number, random: () => number, statusCode: number | null, error: string, retryAfterMs: number | null = null): Verdict {
  const delay = attempts < limit ? retryDelay(attempts, random) : null
  if (delay === null) return { kind: 'failed', statusCode, error: `gave up after ${attempts} attempts; the last: ${error}` }
  const longest = RETRY_DELAYS_MS.at(-1) as number
  const delayMs = retryAfterMs === null ? delay : Math.min(Math.max(delay, retryAfterMs), longest)
  return { kind: 'retry', delayMs, statusCode, error }
}

function describeAnswer(status: number, snippet: string): string {
  const note = status >= 300 && status < 400 ? ' (redirects are not followed)' : ''
  return snippet ? `HTTP ${status}${note}: ${snippet}` : `HTTP ${status}${note}`
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  // An HTTP date names its day and month (Thu, 15 Jan 2026 09:05:00 GMT).
  const date = /^[A-Za-z]{3}, /.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}
