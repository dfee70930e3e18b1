import { unprocessable } from './api-error.ts'

/**
 * Refuses a query string that names a parameter twice (`?limit=1&limit=2`): which one would
 * count is a guess a client should not have to make, and a proxy may have guessed otherwise.
 */
export function refuseRepeatedQueryParameters(request: Request): void {
  const query = request.url.indexOf('?')
  if (query === -1) return
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const name of new URLSearchParams(request.url.slice(query + 1)).keys()) {
    if (seen.has(name)) repeated.add(name)
    seen.add(name)
  }
  if (repeated.size === 0) return
  const names = [...repeated]
  throw unprocessable(
    'validation_failed',
    `the query string is invalid: ${names.map((name) => `${name} is given more than once`).join('; ')}`,
    names.map((name) => ({ path: `/${name}`, message: 'is given more than once; send it once' })),
  )
}
