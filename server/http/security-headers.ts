import { referencePage } from './reference-page.ts'

type Directives = Record<string, string[]>

/**
 * Any HTML without a policy of its own gets this one: nothing inline, nothing from elsewhere,
 * no framing. A new page (the desk at /app) is covered the day it lands, and loosening it for
 * one page means adding that page to PAGE_POLICIES below, where a reviewer sees it.
 */
const STRICT_PAGE: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
}

/**
 * Pages whose needs differ from the strict default, by path. The demo page runs the widget,
 * which writes its stylesheet into its shadow root (an inline style as far as CSP goes) and
 * shows pictures, videos and sounds that chatbots send from any https address; its own
 * script is none. The API reference is one self-contained page: its inline script and
 * stylesheet are allowed by their sha256, computed here at start, so an edit to the page
 * can never run with a stale hash.
 */
/** A page that runs the widget (the demo page, the console's preview frame); only its framing differs. */
const WIDGET_PAGE: Directives = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'https:'],
  'media-src': ["'self'", 'https:'],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
}

const PAGE_POLICIES: Record<string, Directives> = {
  '/': WIDGET_PAGE,
  // The console frames it (same origin only) to show the real widget with unsaved settings.
  '/widget/v1/preview': { ...WIDGET_PAGE, 'frame-ancestors': ["'self'"] },
  '/api/dev/v1/reference': {
    'default-src': ["'none'"],
    'script-src': inlineHashes(referencePage, 'script'),
    'style-src': inlineHashes(referencePage, 'style'),
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  },
}

/**
 * The desk at /app and every path under it (one page, deep links): the strict policy, plus
 * the pictures, videos and sounds chatbots sent from any https address, which the desk shows
 * in a conversation's history as the visitor saw them.
 */
const APP_PAGE: Directives = {
  ...STRICT_PAGE,
  'img-src': ["'self'", 'data:', 'https:'],
  'media-src': ["'self'", 'https:'],
}

function isAppPath(path: string): boolean {
  return path === '/app' || path.startsWith('/app/')
}

/** One year, without includeSubDomains: the operator's other subdomains are not ours to pin. */
const HSTS = 'max-age=31536000'

export type SecurityHeaders = (path: string, response: Response) => void

/**
 * The one place that decides the security headers, applied to every response as it leaves
 * the app (errors included). Every response: `nosniff` (a JSON or text answer is never run
 * as a script or page) and a referrer policy that tells other sites nothing; HSTS when the
 * public URL is https. HTML: its Content-Security-Policy (and the legacy X-Frame-Options).
 * The widget script is a plain script response: no frame or script policy that could
 * stand in the way of the customers' pages that embed it.
 */
export function securityHeaders({ publicUrl }: { publicUrl: string }): SecurityHeaders {
  const https = publicUrl.startsWith('https:')
  const policies = new Map(Object.entries(PAGE_POLICIES).map(([path, directives]) => [path, serialize(directives)]))
  const strict = serialize(STRICT_PAGE)
  const app = serialize(APP_PAGE)
  return (path, response) => {
    const headers = response.headers
    headers.set('x-content-type-options', 'nosniff')
    headers.set('referrer-policy', 'same-origin')
    if (https) headers.set('strict-transport-security', HSTS)
    if (!headers.get('content-type')?.startsWith('text/html')) return
    headers.set('content-security-policy', policies.get(path) ?? (isAppPath(path) ? app : strict))
    headers.set('x-frame-options', PAGE_POLICIES[path]?.['frame-ancestors']?.[0] === "'self'" ? 'SAMEORIGIN' : 'DENY')
  }
}

/** The policy an HTML page at `path` is served with (for tests and docs). */
export function pagePolicy(path: string): string {
  return serialize(PAGE_POLICIES[path] ?? (isAppPath(path) ? APP_PAGE : STRICT_PAGE))
}

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}

/** 'sha256-...' of the text of every inline <script> or <style> element of a page. */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const pattern = new RegExp(`<${tag}(?![^>]*\\ssrc=)[^>]*>([\\s\\S]*?)</${tag}>`, 'gi')
  const hashes = [...html.matchAll(pattern)].map((match) => `'sha256-${new Bun.CryptoHasher('sha256').update(match[1] ?? '').digest('base64')}'`)
  return hashes.length > 0 ? hashes : ["'none'"]
}
