const DAY_MS = 24 * 60 * 60 * 1000

/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 14 * DAY_MS
/** ...and this long after sign-in in any case. */
export const SESSION_MAX_MS = 30 * DAY_MS
/**
 * A session's row is rewritten at most this often: its expiry slides by the minute, and a
 * busy desk does not write to the database on every request.
 */
export const SESSION_TOUCH_MS = 60 * 1000

/** When a session seen at `seenAt` ends: 14 days later, but never past 30 days from its start. */
export function sessionExpiry(createdAt: string, seenAt: string): string {
  const end = Math.min(Date.parse(seenAt) + SESSION_IDLE_MS, Date.parse(createdAt) + SESSION_MAX_MS)
  return new Date(end).toISOString()
}
