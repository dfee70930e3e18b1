import { describe, expect, test } from 'bun:test'
import { rateLimiter } from '../../server/http/rate-limiter.ts'

describe('the token bucket rate limiter', () => {
  test('allows a burst of a quarter of the minute, then refills at the minute rate', () => {
    let clock = 0
    const limit = rateLimiter(120, () => clock)
    const burst = Array.from({ length: 31 }, () => limit('a').allowed)
    expect(burst.filter(Boolean)).toHaveLength(30)
    expect(limit('a')).toEqual({ allowed: false, retryAfter: 1 })
    clock += 500
    expect(limit('a').allowed).toBe(true)
    expect(limit('b').allowed).toBe(true)
  })

  test('0 turns it off', () => {
    const limit = rateLimiter(0)
    for (let i = 0; i < 1000; i++) expect(limit('a').allowed).toBe(true)
  })

  test('once it holds many keys it forgets refilled buckets, never one still drawn down', () => {
    let clock = 0
    const limit = rateLimiter(60, () => clock) // bursts of 15, one token a second
    for (let i = 0; i < 10_000; i++) limit(`visitor-${i}`)
    clock = 10_000
    for (let i = 0; i < 15; i++) limit('busy')
    expect(limit('busy').allowed).toBe(false)
    clock = 16_000 // the visitors' buckets are full again; busy has refilled only 6 tokens
    limit('newcomer')
    const busy = Array.from({ length: 7 }, () => limit('busy').allowed)
    expect(busy).toEqual([true, true, true, true, true, true, false])
  })
})

describe('the rate limiter under many client addresses', () => {
  // Sweeping by full scans made this take about 175 s; it takes about a second. The test's
  // time limit is the (generous) bound, not a measurement.
  test('40,000 new addresses within four seconds are served without full scans, and past 100,000 buckets the least recently used goes', () => {
    let clock = 0
    const limit = rateLimiter(600, () => clock) // bursts of 150; buckets refill in 15 s: none is swept meanwhile
    let allowed = 0
    for (let i = 0; i < 40_000; i++) {
      clock += 0.1
      if (limit(`addr-${i}`).allowed) allowed++
    }
    expect(allowed).toBe(40_000)
    let spent = 0
    while (limit('addr-0').allowed) spent++
    expect(spent).toBeLessThanOrEqual(150)
    for (let i = 40_000; i < 140_000; i++) limit(`addr-${i}`)
    // addr-0 was drawn down but is the least recently used: it went, and starts afresh.
    expect(limit('addr-0').allowed).toBe(true)
  }, 30_000)
})
