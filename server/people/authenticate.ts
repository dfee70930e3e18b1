import { Elysia } from 'elysia'
import { ApiError, unauthorized } from '../http/api-error.ts'
import { addressGroup, clientAddress } from '../http/client-address.ts'
import type { FailedAttempts } from '../http/failed-attempts.ts'
import type { RateLimiter } from '../http/rate-limiter.ts'
import type { Caller, SessionAuth } from './session-auth.ts'

export type Authenticate = ReturnType<typeof authenticate>
export type ApiKeyCheck = (request: Request) => Promise<string>

/** What the key check needs of the workspaces (server/workspaces/service.ts): the workspace a key opens, or null. */
export interface ApiKeys {
  authenticate(presented: string): Promise<string | null>
}

/**
 * The workspace `Authorization: Bearer pk_...` opens, or a 401 saying what is wrong. An
 * address (for IPv6, its /64 network) that has failed too often is refused with 429 before
 * its key is even looked at, valid or not: otherwise the refusal would not slow down a
 * caller testing a list of leaked keys, and its answer would tell which key is valid.
 */
export function apiKeyCheck(workspaces: ApiKeys, failures: FailedAttempts): ApiKeyCheck {
  return async (request) => {
    // The peer's address is only looked up when some address has failed (or this one fails now).
    const address = failures.any() ? addressGroup(clientAddress(request)) : null
    const retryAfter = address === null ? 0 : failures.retryAfter(address)
    if (retryAfter > 0) {
      throw new ApiError(429, 'too_many_failed_attempts', `too many requests with a missing or wrong API key from this address; retry in ${retryAfter} s`, undefined, {
        'retry-after': String(retryAfter),
      })
    }
    try {
      return await workspaceOf(workspaces, request)
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) failures.fail(address ?? addressGroup(clientAddress(request)))
      throw error
    }
  }
}

async function workspaceOf(workspaces: ApiKeys, request: Request): Promise<string> {
  const header = request.headers.get('authorization')
  if (!header) throw unauthorized('send your API key as Authorization: Bearer pk_...')
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw unauthorized('the Authorization header must be "Bearer pk_..."')
  const workspaceId = await workspaces.authenticate(match[1] as string)
  if (!workspaceId) throw unauthorized('the API key is unknown or revoked')
  return workspaceId
}

/**
 * Resolves the API key to the workspace it opens, for every route of the module that uses
 * it; then applies the workspace's rate limit.
 */
export function authenticate(checkKey: ApiKeyCheck, limit: RateLimiter, sessionCaller?: SessionAuth['caller']) {
  return new Elysia().resolve({ as: 'scoped' }, async ({ request, set }): Promise<Caller> => {
    // A person's session cookie (server/people/session-auth.ts), else the API key.
    const caller = (await sessionCaller?.(request, set)) ?? { workspaceId: await checkKey(request) }
    const { workspaceId } = caller
    const decision = limit(workspaceId)
    if (!decision.allowed) {
      throw new ApiError(429, 'rate_limited', `too many requests for this workspace; retry in ${decision.retryAfter} s`, undefined, {
        'retry-after': String(decision.retryAfter),
      })
    }
    return caller
  })
}
