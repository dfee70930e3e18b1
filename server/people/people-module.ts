import { Elysia } from 'elysia'
import type { Config } from '../config.ts'
import type { Units } from '../db/units.ts'
import { failedAttempts } from '../http/failed-attempts.ts'
import { rateLimiter } from '../http/rate-limiter.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { authRoutes } from './auth-routes.ts'
import { type ApiKeys, apiKeyCheck, authenticate } from './authenticate.ts'
import { passwordPool } from './password-pool.ts'
import { usePasswordHashing } from './password.ts'
import { peopleService } from './service.ts'
import { sessionAuth } from './session-auth.ts'
import { sessionService } from './sessions.ts'
import { signInService } from './sign-in.ts'
import type { PeopleStore } from './store.ts'
import { userRoutes } from './user-routes.ts'

type PeopleStores = { people: PeopleStore }

export interface PeopleModuleDeps {
  stores: PeopleStores
  units: Units<PeopleStores>
  now: Clock
  events: EventBus
  config: Pick<Config, 'publicUrl' | 'passwordHashing' | 'passwordChecks' | 'authFailuresPerMinute' | 'rateLimitPerMinute'>
  /** The workspaces' API keys: the other way a caller is known. */
  apiKeys: ApiKeys
}

export type PeopleModule = ReturnType<typeof peopleModule>

/**
 * The team's people and who is calling: accounts, sessions, sign-in, and `auth`, the guard of
 * every route of the developer API (a session cookie, else an API key).
 */
export function peopleModule({ stores, units, now, events, config, apiKeys }: PeopleModuleDeps) {
  usePasswordHashing(config.passwordHashing)
  const passwords = passwordPool({ concurrency: config.passwordChecks })
  const people = peopleService({ stores, units, now, publicUrl: config.publicUrl, events, passwords })
  const sessions = sessionService({ stores, units, now, events })
  const signIn = signInService({ stores, sessions, passwords })
  const sessionCookies = sessionAuth({ sessions, publicOrigin: config.publicUrl })
  const checkKey = apiKeyCheck(apiKeys, failedAttempts(config.authFailuresPerMinute))
  const auth = authenticate(checkKey, rateLimiter(config.rateLimitPerMinute), sessionCookies.caller)
  return {
    people,
    sessions,
    sessionCookies,
    checkKey,
    auth,
    routes: new Elysia().use(authRoutes({ auth, people, sessions, signIn, sessionAuth: sessionCookies })).use(userRoutes(auth, people)),
  }
}
