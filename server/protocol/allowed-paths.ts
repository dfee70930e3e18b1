/**
 * Path-based visibility from the spec: `null`/absent shows the widget everywhere; `/contact`
 * matches exactly that path; `/shop/*` matches `/shop`, `/shop/` and anything deeper.
 */
export function isPathAllowed(allowedPaths: readonly string[] | null | undefined, path: string): boolean {
  if (!allowedPaths) return true
  return allowedPaths.some((pattern) => matches(pattern, path))
}

function matches(pattern: string, path: string): boolean {
  if (!pattern.endsWith('/*')) return path === pattern
  const base = pattern.slice(0, -2)
  return path === base || path.startsWith(`${base}/`)
}
