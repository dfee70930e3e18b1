/**
 * The outbox's sense of time: the clock it schedules attempts by and the timers it sleeps
 * with. Injected so that tests move time forward instead of waiting through a backoff.
 */
export interface OutboxTime {
  /** Milliseconds since the epoch. */
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const systemOutboxTime: OutboxTime = {
  now: () => Date.now(),
  // Unreferenced: a sleeping worker does not keep the process alive.
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** ISO 8601 UTC with milliseconds, the form every stored time takes. */
export const isoAt = (ms: number): string => new Date(ms).toISOString()
