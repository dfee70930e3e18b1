export interface RateDecision {
  allowed: boolean
  /** Seconds until one more request would be allowed (0 when allowed). */
  retryAfter: number
}

export type RateLimiter = (key: string) => RateDecision

/** Past this many keys, buckets that have refilled (as good as new) are forgotten. */
const SWEEP_AT = 10_000
/** Past this many, the least recently used go even before they refill: memory stays bounded. */
const MAX_KEYS = 100_000

/**
 * A token bucket per key: `perMinute` requests a minute on average, bursts up to a quarter
 * of that. In memory on purpose: Parley is one process. Keys come from clients (addresses),
 * so full buckets are swept once there are many: memory stays bounded by recent activity.
 * The map is kept in order of last use (a bucket is re-inserted on every request), so the
 * sweep takes refilled buckets from its front and stops at the first that is not: a full
 * scan per new key made 20,000 new addresses in two seconds cost 25 s of CPU.
 */
export function rateLimiter(perMinute: number, now: () => number = () => performance.now()): RateLimiter {
  if (perMinute <= 0) return () => ({ allowed: true, retryAfter: 0 })
  const capacity = Math.max(10, Math.floor(perMinute / 4))
  const refillPerMs = perMinute / 60_000
  const refillMs = capacity / refillPerMs
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (key) => {
    const t = now()
    let bucket = buckets.get(key)
    if (bucket) buckets.delete(key)
    else if (buckets.size >= SWEEP_AT) {
      for (const [old, oldest] of buckets) {
        if (t - oldest.at < refillMs && buckets.size < MAX_KEYS) break
        buckets.delete(old)
      }
    }
    bucket ??= { tokens: capacity, at: t }
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
