import { addressGroup } from '../http/client-address.ts'
import { ApiError } from '../http/api-error.ts'
import type { SignIn } from './model.ts'
import { verifyPassword } from './password.ts'
import { type PasswordPool, PasswordPoolRefusal } from './password-pool.ts'
import type { StartedSession, SessionService } from './sessions.ts'
import { type SignInThrottle, signInThrottle } from './sign-in-throttle.ts'
import type { PeopleStore, UserRow } from './store.ts'

const WRONG = 'the e-mail or the password is wrong'

export type SignInService = ReturnType<typeof signInService>

interface SignInDeps {
  stores: { people: PeopleStore }
  sessions: SessionService
  /** Where password checks run (server/people/password-pool.ts). */
  passwords: PasswordPool
  monotonicMs?: () => number
  throttle?: SignInThrottle
}

export function signInService({ stores, sessions, passwords, monotonicMs, throttle = signInThrottle(monotonicMs) }: SignInDeps) {
  /** Every candidate's hash is checked, and a dummy one when there is none: the time does not tell whether the e-mail exists. */
  async function matching(input: SignIn): Promise<UserRow[]> {
    const candidates = (await stores.people.findUsersByEmail(input.email.trim())).filter((row) => !input.workspace_id || row.workspace_id === input.workspace_id)
    if (candidates.length === 0) {
      await verifyPassword(input.password, null)
      return []
    }
    const matches: UserRow[] = []
    for (const row of candidates) {
      if ((await verifyPassword(input.password, row.password_hash)) && !row.disabled_at) matches.push(row)
    }
    return matches
  }

  return {
    /** The same 401 for an unknown e-mail, a wrong password, a disabled or not yet activated person. */
    async signIn(input: SignIn, where: { address: string; userAgent: string | null }): Promise<{ user: UserRow; session: StartedSession }> {
      // The account as typed, whether or not anyone has it, so the limit itself tells nothing.
      const account = input.email.trim().toLowerCase()
      const address = addressGroup(where.address)
      const decision = throttle.check(account, address)
      if (!decision.allowed) {
        const scope = decision.scope === 'pair' ? 'for this account from this address' : 'from this address'
        throw limited(`too many sign-in attempts ${scope}; retry in ${decision.retryAfter} s`, decision.retryAfter)
      }
      let matches: UserRow[]
      try {
        matches = await passwords.run(address, decision.goodStanding, () => matching(input))
      } catch (error) {
        if (!(error instanceof PasswordPoolRefusal)) throw error
        if (error.reason === 'address') throw limited('too many sign-in attempts from this address at once; retry in 1 s', 1)
        throw new ApiError(503, 'sign_in_busy', 'too many sign-ins are being checked right now; retry in 1 s', undefined, { 'retry-after': '1' })
      }
      if (matches.length > 1) {
        throw new ApiError(409, 'workspace_required', 'this e-mail and password open several workspaces: send workspace_id too')
      }
      const user = matches[0]
      if (!user) {
        throttle.failed(account, address)
        throw new ApiError(401, 'invalid_credentials', WRONG)
      }
      throttle.succeeded(account, address)
      return { user, session: await sessions.start(user, { userAgent: where.userAgent, address: where.address }) }
    },
  }
}

function limited(detail: string, retryAfter: number): ApiError {
  return new ApiError(429, 'rate_limited', detail, undefined, { 'retry-after': String(retryAfter) })
}
