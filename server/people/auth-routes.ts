import { Elysia, t } from 'elysia'
import { ApiError, notFound } from '../http/api-error.ts'
import type { Authenticate } from './authenticate.ts'
import { clientAddress } from '../http/client-address.ts'
import { errorResponses } from '../http/error-responses.ts'
import { failedAttempts } from '../http/failed-attempts.ts'
import { AcceptInvite, LinkAnswer, LinkQuestion, Me, SessionList, SignIn, UpdateMe } from './model.ts'
import { type PeopleService, toUser } from './service.ts'
import type { Caller, SessionAuth } from './session-auth.ts'
import { clearedSessionCookie, sessionCookie } from './session-cookie.ts'
import type { SessionService, StartedSession } from './sessions.ts'
import type { SignInService } from './sign-in.ts'
import type { UserRow } from './store.ts'

const tags = ['People']
/**
 * Wrong one-time tokens an address may send in a minute before it waits: guessing is slowed,
 * while a team that accepts its invites from one office address is not (a working link is
 * spent once, and its password hash takes its turn in the bounded pool).
 */
const WRONG_LINKS_PER_ADDRESS_PER_MINUTE = 20

interface AuthRoutesDeps {
  auth: Authenticate
  people: PeopleService
  sessions: SessionService
  signIn: SignInService
  sessionAuth: SessionAuth
}

/** Signing in and out: the routes that set and clear the session cookie. */
export function authRoutes({ auth, people, sessions, signIn, sessionAuth }: AuthRoutesDeps) {
  const { secure } = sessionAuth
  const wrongLinks = failedAttempts(WRONG_LINKS_PER_ADDRESS_PER_MINUTE)
  /** Runs a look at a one-time token for `request`'s address, unless it has guessed too often; a wrong token counts. */
  const withLink = async <T>(request: Request, look: () => T | Promise<T>): Promise<T> => {
    const address = clientAddress(request)
    const retryAfter = wrongLinks.retryAfter(address)
    if (retryAfter > 0) {
      throw new ApiError(429, 'rate_limited', `too many wrong links from this address; retry in ${retryAfter} s`, undefined, { 'retry-after': String(retryAfter) })
    }
    try {
      return await look()
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_token') wrongLinks.fail(address)
      throw error
    }
  }
  const where = (request: Request) => ({ address: clientAddress(request), userAgent: request.headers.get('user-agent') })
  const signedIn = (user: UserRow, session: StartedSession, set: { headers: Record<string, unknown> }) => {
    set.headers['set-cookie'] = sessionCookie(session.secret, (Date.parse(session.expiresAt) - Date.parse(session.createdAt)) / 1000, secure)
    return { user: toUser(user), workspace_id: user.workspace_id, session: { created_at: session.createdAt, expires_at: session.expiresAt } }
  }
  /** Ends what `end` ends for the signed-in person and clears the cookie: 204. */
  const signOut =
    (end: (person: NonNullable<Caller['person']>) => Promise<void>) =>
    async (context: Caller & { set: { headers: Record<string, unknown> }; status: (code: 204, body: undefined) => unknown }) => {
      await end(requirePerson(context))
      context.set.headers['set-cookie'] = clearedSessionCookie(secure)
      return context.status(204, undefined)
    }

  const open = new Elysia({ prefix: '/auth' })
    .post(
      '/sign-in',
      async ({ request, body, set }) => {
        sessionAuth.refuseForeignOrigin(request)
        const { user, session } = await signIn.signIn(body, where(request))
        return signedIn(user, session, set)
      },
      {
        body: SignIn,
        response: { 200: Me, ...errorResponses(400, 403, 409, 413, 415, 422, 503) },
        detail: {
          tags,
          summary: 'Sign in with e-mail and password',
          description:
            'Sets the `parley_session` cookie (HttpOnly, SameSite=Lax, Secure over https). A wrong e-mail and a wrong password get the same 401. Slowed per address and per (e-mail, address), never per e-mail alone (429 with Retry-After); 503 sign_in_busy with Retry-After when the queue of password checks is full.',
          security: [],
        },
      },
    )
    .post(
      '/link',
      ({ request, body }) => {
        sessionAuth.refuseForeignOrigin(request)
        return withLink(request, () => people.peek(body.token))
      },
      {
        body: LinkQuestion,
        response: { 200: LinkAnswer, ...errorResponses(400, 403, 413, 415, 422) },
        detail: {
          tags,
          summary: 'What a one-time link is for, without using it',
          description:
            "The link's page asks first, so that a used or expired link says so at once instead of after a form, and an invite shows the e-mail the person will sign in with. A link that would not work answers 400 invalid_token, as accept-invite would, and counts with accept-invite's wrong links per address (20 a minute, then 429 with Retry-After).",
          security: [],
        },
      },
    )
    .post(
      '/accept-invite',
      async ({ request, body, set }) => {
        sessionAuth.refuseForeignOrigin(request)
        const user = await withLink(request, () => people.accept(body))
        return signedIn(user, await sessions.start(user, where(request)), set)
      },
      {
        body: AcceptInvite,
        response: { 200: Me, ...errorResponses(400, 403, 409, 413, 415, 422, 503) },
        detail: {
          tags,
          summary: 'Set a password from a one-time link, and sign in',
          description:
            'Takes the token of a setup link (creates the first admin: send `email`), an invite link or a password reset link (signs the person out everywhere first). A link works once.',
          security: [],
        },
      },
    )

  const personal = new Elysia({ prefix: '/auth' })
    .use(auth)
    .get(
      '/me',
      async (context) => {
        const person = requirePerson(context)
        const session = (await sessions.list(person.id)).find((row) => row.id === person.sessionId)
        return {
          user: await people.get(context.workspaceId, person.id),
          workspace_id: context.workspaceId,
          session: { created_at: session?.created_at ?? '', expires_at: session?.expires_at ?? '' },
        }
      },
      {
        response: { 200: Me, ...errorResponses(400) },
        detail: { tags, summary: 'Who is signed in', description: 'Needs the session cookie; an API key gets 400 session_required.' },
      },
    )
    .patch(
      '/me',
      async (context) => {
        const person = requirePerson(context)
        const session = (await sessions.list(person.id)).find((row) => row.id === person.sessionId)
        return {
          user: await people.updateOwn(context.workspaceId, person.id, context.body),
          workspace_id: context.workspaceId,
          session: { created_at: session?.created_at ?? '', expires_at: session?.expires_at ?? '' },
        }
      },
      {
        body: UpdateMe,
        response: { 200: Me, ...errorResponses(400, 403, 413, 415, 422) },
        detail: {
          tags,
          summary: 'Change your own settings: the language of the app',
          description:
            "`locale` is one of the app's languages (`en`, `es`), or null to follow your browser's. An unknown tag answers 422 validation_failed naming `/locale`. Any signed-in person, agents included; an API key gets 400 session_required.",
        },
      },
    )
    .get(
      '/sessions',
      async (context) => {
        const person = requirePerson(context)
        const items = (await sessions.list(person.id)).map(({ id, created_at, last_seen_at, expires_at, user_agent, address }) => ({
          id, created_at, last_seen_at, expires_at, user_agent, address, current: id === person.sessionId,
        }))
        return { items }
      },
      {
        response: { 200: SessionList, ...errorResponses(400) },
        detail: { tags, summary: 'Where you are signed in', description: 'Your live sessions, most recently used first.' },
      },
    )
    .post(
      '/sign-out',
      signOut((person) => sessions.end(person.sessionId)),
      {
        response: { 204: t.Void(), ...errorResponses(400, 403) },
        detail: { tags, summary: 'Sign out', description: 'Ends this session at once and clears the cookie.' },
      },
    )
    .delete(
      '/sessions/:session_id',
      async (context) => {
        const person = requirePerson(context)
        if (!(await sessions.list(person.id)).some((row) => row.id === context.params.session_id)) throw notFound('session')
        await sessions.end(context.params.session_id)
        if (context.params.session_id === person.sessionId) context.set.headers['set-cookie'] = clearedSessionCookie(secure)
        return context.status(204, undefined)
      },
      {
        params: t.Object({ session_id: t.String({ description: 'an id from GET /auth/sessions' }) }),
        response: { 204: t.Void(), ...errorResponses(400, 403, 404) },
        detail: { tags, summary: 'End one of your sessions', description: 'Signs that browser out at once (its desk socket closes). Another person\'s session answers 404.' },
      },
    )
    .post(
      '/sign-out-everywhere',
      signOut((person) => sessions.endAll(person.id)),
      {
        response: { 204: t.Void(), ...errorResponses(400, 403) },
        detail: { tags, summary: 'Sign out everywhere', description: 'Ends every session of the signed-in person, this one included.' },
      },
    )

  return new Elysia().use(open).use(personal)
}

function requirePerson(caller: Caller): NonNullable<Caller['person']> {
  if (!caller.person) {
    throw new ApiError(400, 'session_required', 'this route is for a signed-in person: send the session cookie, not an API key')
  }
  return caller.person
}
