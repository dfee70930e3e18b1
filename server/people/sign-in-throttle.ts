import { type RateDecision, rateLimiter } from '../http/rate-limiter.ts'

/** Attempts per address, counted whether they succeed or not: a burst of 20, then 80 a minute. */
export const SIGN_IN_PER_ADDRESS = { perMinute: 80 }
/** Failures of one account from one address before each further try must wait. */
export const FREE_FAILURES_PER_PAIR = 5
/** The wait after the first failure past the free ones; it doubles with each further one, up to the longest. */
export const FIRST_PAIR_WAIT_MS = 60_000
export const LONGEST_PAIR_WAIT_MS = 3_600_000
/** An address with this many failures in the window is no longer in good standing (its checks wait behind others'). */
const STANDING_FAILURES = 3
const STANDING_WINDOW_MS = 15 * 60_000
/** A pair with no failure for this long starts over. */
const PAIR_MEMORY_MS = 24 * 3_600_000
/** Past this many keys the oldest are forgotten: memory stays bounded whatever the addresses. */
const MAX_KEYS = 100_000

export type ThrottleDecision = { allowed: true; goodStanding: boolean } | { allowed: false; scope: 'address' | 'pair'; retryAfter: number }

export type SignInThrottle = ReturnType<typeof signInThrottle>

/**
 * How sign-in attempts are slowed, as trusted systems do it: by address and by (account,
 * address), never by account alone. One account's wrong passwords from one address make
 * that address wait before its next try at that account (after 5, then 1 minute, doubling
 * each time up to an hour; a success starts over), while the real person signs in from any
 * other address at once: an attacker can no longer keep a known person (the admin included)
 * out with one request a minute. Every address is bounded in all (a burst of 20, then 80 a
 * minute, whatever the accounts). Addresses are counted by their group (an IPv6 /64).
 * Whether an address is in good standing (fewer than 3 failures in 15 minutes) decides its
 * lane in the password pool.
 */
export function signInThrottle(now: () => number = () => performance.now()) {
  const perAddress = rateLimiter(SIGN_IN_PER_ADDRESS.perMinute, now)
  /** (account, address) -> failures and when the last was; in order of last failure. */
  const pairs = new Map<string, { failures: number; lastAt: number }>()
  /** address -> times of its recent failures (at most STANDING_FAILURES kept). */
  const recentFailures = new Map<string, number[]>()

  const pairKey = (account: string, address: string) => `${account}\n${address}`
  const waitAfter = (failures: number) =>
    failures < FREE_FAILURES_PER_PAIR ? 0 : Math.min(FIRST_PAIR_WAIT_MS * 2 ** (failures - FREE_FAILURES_PER_PAIR), LONGEST_PAIR_WAIT_MS)

  function remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key)
    if (map.size >= MAX_KEYS) map.delete(map.keys().next().value as string)
    map.set(key, value)
  }

  function goodStanding(address: string, t: number): boolean {
    const times = recentFailures.get(address)
    return !times || times.filter((at) => t - at < STANDING_WINDOW_MS).length < STANDING_FAILURES
  }

  return {
    /** Before the password is looked at: may this address try this account now? */
    check(account: string, address: string): ThrottleDecision {
      const t = now()
      const pair = pairs.get(pairKey(account, address))
      if (pair && t - pair.lastAt < PAIR_MEMORY_MS) {
        const wait = waitAfter(pair.failures) - (t - pair.lastAt)
        if (wait > 0) return { allowed: false, scope: 'pair', retryAfter: Math.ceil(wait / 1000) }
      }
      const decision: RateDecision = perAddress(address)
      if (!decision.allowed) return { allowed: false, scope: 'address', retryAfter: decision.retryAfter }
      return { allowed: true, goodStanding: goodStanding(address, t) }
    },

    failed(account: string, address: string): void {
      const t = now()
      const key = pairKey(account, address)
      const pair = pairs.get(key)
      const failures = pair && t - pair.lastAt < PAIR_MEMORY_MS ? pair.failures + 1 : 1
      remember(pairs, key, { failures, lastAt: t })
      remember(recentFailures, address, [...(recentFailures.get(address) ?? []), t].slice(-STANDING_FAILURES))
    },

    succeeded(account: string, address: string): void {
      pairs.delete(pairKey(account, address))
    },
  }
}
