import type { Role } from '../../../server/people/model.ts'
import type { TestApp } from '../../support/test-app.ts'

export const ORIGIN = 'http://parley.test'
export const PASSWORD = 'correct horse battery staple'

/** The session cookie pair (name=value) a Set-Cookie header carries. */
export function cookieOf(setCookie: string | null): string {
  if (!setCookie) throw new Error('no Set-Cookie header')
  return setCookie.split(';', 1)[0] as string
}

/** The token of a one-time link (after #token=). */
export function tokenOf(url: string): string {
  return url.split('#token=')[1] as string
}

/** A person who has set their password, in the app's first workspace unless told otherwise. */
export async function activePerson(app: TestApp, email: string, role: Role, workspaceKey = app.key) {
  const created = await app.call('POST', '/api/dev/v1/users', { key: workspaceKey, body: { email, display_name: email.split('@')[0], role } })
  if (created.status !== 201) throw new Error(`invite failed: ${created.text}`)
  const accepted = await app.call('POST', '/api/dev/v1/auth/accept-invite', { key: null, body: { token: tokenOf(created.body.invite.url), password: PASSWORD } })
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.text}`)
  return { id: created.body.user.id as string, email, cookie: cookieOf(accepted.headers.get('set-cookie')) }
}

/** A new session of a person who has a password. */
export async function signIn(app: TestApp, email: string): Promise<string> {
  const result = await app.call('POST', '/api/dev/v1/auth/sign-in', { key: null, body: { email, password: PASSWORD } })
  if (result.status !== 200) throw new Error(`sign-in failed: ${result.text}`)
  return cookieOf(result.headers.get('set-cookie'))
}

/** Headers of a browser request made with a session: its cookie and Parley's own Origin. */
export const browser = (cookie: string, origin = ORIGIN) => ({ cookie, origin })
