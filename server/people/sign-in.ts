import { ApiError } from '../http/api-error.ts'
import { type RateDecision, rateLimiter } from '../http/rate-limiter.ts'
import type { SignIn } from './model.ts'
import { verifyPassword } from './password.ts'
import type { StartedSession, SessionService } from './sessions.ts'
import type { PeopleStore, UserRow } from './store.ts'

/**
 * Attempts allowed, counted whether they succeed or not: per address a burst of 20, then 60 a
 * minute (an office behind one address stays served); per account (the e-mail as typed,
 * whether or not anyone has it, so the limit itself tells nothing) a burst of 10, then one a
 * minute: at most about 1,450 guesses a day against one password.
 */
export const SIGN_IN_PER_ADDRESS = { perMinute: 80 }
export const SIGN_IN_PER_ACCOUNT = { perMinute: 1 }

const WRONG = 'the e-mail or the password is wrong'

export type SignInService = ReturnType<typeof signInService>

export function signInService({ store, sessions, monotonicMs }: { store: PeopleStore; sessions: SessionService; monotonicMs?: () => number }) {
  const perAddress = rateLimiter(SIGN_IN_PER_ADDRESS.perMinute, monotonicMs)
  const perAccount = rateLimiter(SIGN_IN_PER_ACCOUNT.perMinute, monotonicMs)

  return {
    /** The same 401 for an unknown e-mail, a wrong password, a disabled or not yet activated person. */
    async signIn(input: SignIn, where: { address: string; userAgent: string | null }): Promise<{ user: UserRow; session: StartedSession }> {
      refuseWhenLimited(perAddress(where.address), 'from this address')
      refuseWhenLimited(perAccount(input.email.trim().toLowerCase()), 'for this account')
      const candidates = store
        .findUsersByEmail(input.email.trim())
        .filter((row) => !input.workspace_id || row.workspace_id === input.workspace_id)
      const matches: UserRow[] = []
      // Every candidate's hash is checked, and a dummy one when there is none: the time spent
      // does not depend on whether the e-mail exists.
      if (candidates.length === 0) await verifyPassword(input.password, null)
      for (const row of candidates) {
        if ((await verifyPassword(input.password, row.password_hash)) && !row.disabled_at) matches.push(row)
      }
      if (matches.length > 1) {
        throw new ApiError(409, 'workspace_required', 'this e-mail and password open several workspaces: send workspace_id too')
      }
      const user = matches[0]
      if (!user) throw new ApiError(401, 'invalid_credentials', WRONG)
      return { user, session: sessions.start(user, { userAgent: where.userAgent, address: where.address }) }
    },
  }
}

function refuseWhenLimited(decision: RateDecision, scope: string): void {
  if (decision.allowed) return
  throw new ApiError(429, 'rate_limited', `too many sign-in attempts ${scope}; retry in ${decision.retryAfter} s`, undefined, {
    'retry-after': String(decision.retryAfter),
  })
}
