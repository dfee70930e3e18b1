/**
 * Where to go after signing in: a path inside the app only. `//evil.test` or `/\evil.test`
 * would leave the site (browsers read both as another host), so anything but one leading
 * slash goes to the list.
 */
export function safeNext(next: string | undefined): string {
  return next && /^\/(?![/\\])[^\\]*$/.test(next) && !next.startsWith('/sign-in') ? next : '/'
}
