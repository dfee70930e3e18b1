export interface RateDecision {
  allowed: boolean
  /** Seconds until one more request would be allowed (0 when allowed). */
  retryAfter: number
}

export type RateLimiter = (key: string) => RateDecision

/**
 * A token bucket per key: `perMinute` requests a minute on average, bursts up to a quarter
 * of that. In memory on purpose: Parley is one process.
 */
export function rateLimiter(perMinute: number, now: () => number = () => performance.now()): RateLimiter {
  if (perMinute <= 0) return () => ({ allowed: true, retryAfter: 0 })
  const capacity = Math.max(10, Math.floor(perMinute / 4))
  const refillPerMs = perMinute / 60_000
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (key) => {
    const t = now()
    const bucket = buckets.get(key) ?? { tokens: capacity, at: t }
    bucket.tokens = Math.min(capacity, bucket.tokens + (t - bucket.at) * refillPerMs)
    bucket.at = t
    buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true, retryAfter: 0 }
    }
    return { allowed: false, retryAfter: Math.ceil((1 - bucket.tokens) / refillPerMs / 1000) }
  }
}
