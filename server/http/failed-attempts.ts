/** Past this many addresses, the oldest windows go even before they end: memory stays bounded. */
const MAX_ADDRESSES = 100_000

export interface FailedAttempts {
  /** Seconds until `address` may try again: 0 unless it has failed too often in its window. */
  retryAfter(address: string): number
  /** Counts one failed attempt of `address`, opening a window at its first failure. */
  fail(address: string): void
  /** Whether any address has a window open: when none has, no address needs looking up to answer `retryAfter`. */
  any(): boolean
}

/**
 * Failed attempts per address in a fixed window: `limit` failures in `windowMs` (from the
 * first failure), then the address is refused until the window ends. Refused attempts are
 * not counted, so a client that keeps trying is let back in on time. In memory on purpose,
 * like the rate limiter: Parley is one process.
 */
export function failedAttempts(limit: number, now: () => number = () => performance.now(), windowMs = 60_000): FailedAttempts {
  if (limit <= 0) return { retryAfter: () => 0, fail: () => {}, any: () => false }
  // Every window lasts windowMs and is (re)inserted when it opens, so the map's order is the
  // order in which windows end: ended ones are swept from its front, never by a full scan
  // (which addresses by the thousand would turn into a cost per request).
  const windows = new Map<string, { failures: number; endsAt: number }>()
  const makeRoom = (t: number) => {
    for (const [address, window] of windows) {
      if (t < window.endsAt && windows.size < MAX_ADDRESSES) break
      windows.delete(address)
    }
  }
  return {
    retryAfter(address) {
      const window = windows.get(address)
      if (!window) return 0
      const t = now()
      if (t >= window.endsAt) {
        windows.delete(address)
        return 0
      }
      return window.failures >= limit ? Math.max(1, Math.ceil((window.endsAt - t) / 1000)) : 0
    },
    fail(address) {
      const t = now()
      let window = windows.get(address)
      if (!window || t >= window.endsAt) {
        windows.delete(address)
        makeRoom(t)
        window = { failures: 0, endsAt: t + windowMs }
        windows.set(address, window)
      }
      window.failures += 1
    },
    any: () => windows.size > 0,
  }
}
