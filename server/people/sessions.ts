import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { constantTimeEqual } from '../support/constant-time-equal.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import type { Role } from './model.ts'
import { secretHash } from './secret-hash.ts'
import { SESSION_TOUCH_MS, sessionExpiry } from './session-lifetime.ts'
import type { PeopleStore, SessionRow, UserRow } from './store.ts'

/** Who a valid session cookie stands for. */
export interface ResumedSession {
  sessionId: string
  workspaceId: string
  person: { id: string; role: Role }
  createdAt: string
  expiresAt: string
  /** Set when the expiry slid forward: the cookie is sent again with the new lifetime. */
  renewed: boolean
  /** Seconds from now to the expiry, for the cookie's Max-Age. */
  maxAgeSeconds: number
}

export interface StartedSession {
  secret: string
  expiresAt: string
  createdAt: string
}

export type SessionService = ReturnType<typeof sessionService>

type SessionStores = { people: PeopleStore }

/**
 * Browser sessions: a random secret in the cookie, its SHA-256 in the database. A session
 * ends 14 days after its last use and 30 days after sign-in, whichever comes first.
 */
export function sessionService({ stores, units, now, events }: { stores: SessionStores; units: Units<SessionStores>; now: Clock; events?: EventBus }) {
  const store = stores.people
  return {
    async start(user: UserRow, where: { userAgent: string | null; address: string | null }): Promise<StartedSession> {
      const secret = `ps_${randomToken(40)}`
      const at = now()
      const row: SessionRow = {
        id: newId(),
        hash: secretHash(secret),
        user_id: user.id,
        workspace_id: user.workspace_id,
        created_at: at,
        last_seen_at: at,
        expires_at: sessionExpiry(at, at),
        user_agent: where.userAgent?.slice(0, 300) ?? null,
        address: where.address,
      }
      await units.unit((tx) => tx.people.insertSession(row))
      return { secret, expiresAt: row.expires_at, createdAt: at }
    },

    /**
     * The session a cookie's secret opens, its expiry slid forward; null if it has ended. The
     * slide is written at most once per SESSION_TOUCH_MS, and the request does not wait for it.
     */
    async resume(secret: string): Promise<ResumedSession | null> {
      if (!secret.startsWith('ps_') || secret.length > 100) return null
      const hash = secretHash(secret)
      const row = await store.findSession(hash)
      if (!row || !constantTimeEqual(row.hash, hash) || row.disabled_at) return null
      const at = now()
      if (row.expires_at <= at) {
        await units.unit((tx) => tx.people.deleteSession(row.id))
        return null
      }
      let expiresAt = row.expires_at
      const renewed = Date.parse(at) - Date.parse(row.last_seen_at) >= SESSION_TOUCH_MS
      if (renewed) {
        expiresAt = sessionExpiry(row.created_at, at)
        units.unit((tx) => tx.people.touchSession(row.id, at, expiresAt)).catch(() => {})
      }
      return {
        sessionId: row.id,
        workspaceId: row.workspace_id,
        person: { id: row.user_id, role: row.role },
        createdAt: row.created_at,
        expiresAt,
        renewed,
        maxAgeSeconds: (Date.parse(expiresAt) - Date.parse(at)) / 1000,
      }
    },

    async end(sessionId: string): Promise<void> {
      await units.unit((tx) => tx.people.deleteSession(sessionId))
      events?.emit('people.sessions_ended', { sessionId })
    },
    async endAll(userId: string): Promise<void> {
      await units.unit((tx) => tx.people.deleteSessionsOf(userId))
      events?.emit('people.sessions_ended', { userId })
    },
    /** Whether a session is still live (the desk socket checks the one it was opened with). */
    isLive: (sessionId: string): Promise<boolean> => store.isSessionLive(sessionId, now()),
    list: (userId: string): Promise<SessionRow[]> => store.listSessions(userId),
  }
}
