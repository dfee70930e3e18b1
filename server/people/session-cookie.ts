export const SESSION_COOKIE = 'parley_session'

/** The session id the request's Cookie header carries, if any. */
export function readSessionCookie(request: Request): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || null
  }
  return null
}

/**
 * The Set-Cookie value for a session: never readable by scripts (HttpOnly), not sent on
 * cross-site subrequests (SameSite=Lax), Secure when Parley is served over https.
 */
export function sessionCookie(secret: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${secret}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ')
}

/** Tells the browser to forget the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure)
}
