/**
 * allowed_domains against a page's Origin: `example.com` allows that host, `*.example.com`
 * its subdomains (not the apex); an entry with `:port` also requires that port. An empty list
 * allows every origin, even a missing one; otherwise a missing Origin is refused.
 */
export function isOriginAllowed(allowedDomains: readonly string[], origin: string | null): boolean {
  if (allowedDomains.length === 0) return true
  if (!origin) return false
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  const host = url.hostname.toLowerCase()
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return allowedDomains.some((entry) => entryAllows(entry.toLowerCase(), host, port))
}

function entryAllows(entry: string, host: string, port: string): boolean {
  const colon = entry.lastIndexOf(':')
  const entryHost = colon > 0 ? entry.slice(0, colon) : entry
  const entryPort = colon > 0 ? entry.slice(colon + 1) : undefined
  if (entryPort !== undefined && entryPort !== port) return false
  if (entryHost.startsWith('*.')) {
    const parent = entryHost.slice(1)
    return host.endsWith(parent) && host.length > parent.length
  }
  return host === entryHost
}
