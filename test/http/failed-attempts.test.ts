import { describe, expect, test } from 'bun:test'
import { failedAttempts } from '../../server/http/failed-attempts.ts'

describe('failed attempts per address', () => {
  test('an address is refused after its limit of failures until the minute from its first failure ends', () => {
    let clock = 0
    const attempts = failedAttempts(20, () => clock)
    for (let i = 0; i < 19; i++) attempts.fail('203.0.113.7')
    expect(attempts.retryAfter('203.0.113.7')).toBe(0)
    clock = 10_000
    attempts.fail('203.0.113.7')
    expect(attempts.retryAfter('203.0.113.7')).toBe(50)
    expect(attempts.retryAfter('203.0.113.8')).toBe(0)
    clock = 59_500
    expect(attempts.retryAfter('203.0.113.7')).toBe(1)
    clock = 60_000
    expect(attempts.retryAfter('203.0.113.7')).toBe(0)
  })

  test('a new window starts at the first failure after the last one ended: failures spread out never add up', () => {
    let clock = 0
    const attempts = failedAttempts(3, () => clock)
    for (const at of [0, 30_000, 59_999, 60_000, 61_000]) {
      clock = at
      attempts.fail('a')
    }
    expect(attempts.retryAfter('a')).toBe(0)
    attempts.fail('a')
    expect(attempts.retryAfter('a')).toBe(59)
  })

  test('0 turns it off', () => {
    const attempts = failedAttempts(0)
    for (let i = 0; i < 1000; i++) attempts.fail('a')
    expect(attempts.retryAfter('a')).toBe(0)
  })

  test('memory stays bounded: ended windows are swept, and past 100,000 addresses the oldest go', () => {
    let clock = 0
    const attempts = failedAttempts(1, () => clock)
    attempts.fail('blocked')
    expect(attempts.retryAfter('blocked')).toBe(60)
    // Within the same minute, from more addresses than are kept: the oldest window is dropped.
    for (let i = 0; i < 100_000; i++) attempts.fail(`spoofed-${i}`)
    expect(attempts.retryAfter('blocked')).toBe(0)
    expect(attempts.retryAfter('spoofed-99999')).toBe(60)
    // A minute later every window has ended: the next new address sweeps them all.
    clock = 60_000
    attempts.fail('late')
    expect(attempts.retryAfter('spoofed-99999')).toBe(0)
    expect(attempts.retryAfter('late')).toBe(60)
  })
})
