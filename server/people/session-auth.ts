import { ApiError } from '../http/api-error.ts'
import type { Role } from './model.ts'
import { isAdminAction, isStateChanging } from './agent-policy.ts'
import { clearedSessionCookie, readSessionCookie, sessionCookie } from './session-cookie.ts'
import type { ResumedSession, SessionService } from './sessions.ts'

/** Who made a request: a machine with an API key (no person), or a signed-in person. */
export type Caller = {
  workspaceId: string
  person?: { id: string; role: Role; sessionId: string }
}

/** Where the context lets a hook add response headers (Elysia's `set`). */
export interface ResponseHeaders {
  headers: Record<string, unknown>
}

export type SessionAuth = ReturnType<typeof sessionAuth>

/** Paths anyone may call without a key or a session: they open sessions, or say what a link is for. */
const OPEN_PATHS = new Set(['/api/dev/v1/auth/sign-in', '/api/dev/v1/auth/accept-invite', '/api/dev/v1/auth/link'])

/**
 * The session-cookie half of authentication. A request with an Authorization header is a
 * machine's and is left to the API key; a request with the session cookie is a person's:
 * the session must be live, a change must come from Parley's own origin (the browser always
 * sends Origin on POST, PATCH and DELETE, and a forged cross-site request cannot hide it),
 * and an `agent` may not take admin actions.
 */
export function sessionAuth({ sessions, publicOrigin }: { sessions: SessionService; publicOrigin: string }) {
  const secure = publicOrigin.startsWith('https:')
  // The body parser asks before the route does: one lookup per request.
  const resolved = new WeakMap<Request, Promise<ResumedSession | null>>()
  // What the lookups answered, for the checks that must answer at once (preloaded first).
  const settledSessions = new WeakMap<Request, ResumedSession | null>()

  /** Looks up the session of the request's cookie once; what it finds, the synchronous checks then know. */
  function preload(request: Request): Promise<ResumedSession | null> {
    let pending = resolved.get(request)
    if (!pending) {
      const secret = readSessionCookie(request)
      pending = secret === null ? Promise.resolve(null) : sessions.resume(secret)
      pending = pending.then((session) => {
        settledSessions.set(request, session)
        return session
      })
      resolved.set(request, pending)
    }
    return pending
  }

  /** The caller, from the session already looked up (`session`); null when the request is no person's. */
  function callerOf(request: Request, session: ResumedSession | null, set?: ResponseHeaders): Caller | null {
    if (request.headers.has('authorization')) return null
    const secret = readSessionCookie(request)
    if (secret === null) return null
    if (!session) {
      throw new ApiError(401, 'unauthorized', 'the session has ended; sign in again', undefined, {
        'www-authenticate': 'Bearer',
        'set-cookie': clearedSessionCookie(secure),
      })
    }
    const path = new URL(request.url).pathname
    if (isStateChanging(request.method) && request.headers.get('origin') !== publicOrigin) {
      throw new ApiError(403, 'origin_refused', `a change made with the session cookie must come from ${publicOrigin} (the Origin header)`)
    }
    if (session.person.role === 'agent' && isAdminAction(request.method, path)) {
      throw new ApiError(403, 'forbidden', 'this is an admin action; your role (agent) may not do it')
    }
    if (session.renewed && set) {
      set.headers['set-cookie'] = sessionCookie(secret, session.maxAgeSeconds, secure)
    }
    return { workspaceId: session.workspaceId, person: { ...session.person, sessionId: session.sessionId } }
  }

  /** A request with an Authorization header is left to the API key; one without the cookie awaits nothing. */
  async function caller(request: Request, set?: ResponseHeaders): Promise<Caller | null> {
    if (request.headers.has('authorization') || !readSessionCookie(request)) return null
    return callerOf(request, await preload(request), set)
  }

  return {
    caller,
    preload,
    /**
     * The caller from a session looked up by `preload` before (the sockets' upgrades, which
     * answer at once); a request not preloaded is no one's.
     */
    preloadedCaller: (request: Request): Caller | null => callerOf(request, settledSessions.get(request) ?? null, undefined),
    secure,
    /**
     * For the body parser, before a byte is read: true when the request may go on to its route
     * without an API key (a live session, or a route that opens sessions).
     */
    async admitsWithoutKey(request: Request, path: string): Promise<boolean> {
      if (OPEN_PATHS.has(path)) return true
      return (await caller(request)) !== null
    },
    /**
     * Whether a request comes from Parley's own pages (its Origin) with a live session of a
     * person of `workspaceId`. The widget preview the console frames is admitted by it where a
     * chatbot's allowed_domains leave Parley's host out. Never throws: an ended session is no
     * one. Answers at once, from what `preload` found: a request not preloaded is no one's.
     */
    isTeamPage(request: Request, workspaceId: string): boolean {
      if (request.headers.get('origin') !== publicOrigin) return false
      // Not caller(): the widget's uploads carry their socket's token in Authorization.
      return settledSessions.get(request)?.workspaceId === workspaceId
    },
    /** Sign-in and invite acceptance change state without a session: a browser's Origin, when sent, must be ours. */
    refuseForeignOrigin(request: Request): void {
      const origin = request.headers.get('origin')
      if (origin !== null && origin !== publicOrigin) {
        throw new ApiError(403, 'origin_refused', `sign-in must come from ${publicOrigin} (the Origin header)`)
      }
    },
  }
}

/**
 * A socket's upgrade, which answers at once, run once the session of the request's cookie
 * has been looked up (`preload`); a request without the cookie (a visitor's widget) waits for
 * nothing. A failed lookup leaves the request no one's: the upgrade refuses it as such.
 */
export function sessionFirst<S, R>(auth: Pick<SessionAuth, 'preload'>, upgrade: (request: Request, server: S) => R | Promise<R>): (request: Request, server: S) => R | Promise<R> {
  return (request, server) => {
    if (readSessionCookie(request) === null) return upgrade(request, server)
    const go = () => upgrade(request, server)
    return auth.preload(request).then(go, go)
  }
}
