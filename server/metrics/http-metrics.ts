import type { MetricsRegistry } from './registry.ts'
import { routeTemplates } from './route-templates.ts'

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export type ObserveRequest = (method: string, path: string, status: number, durationMs: number) => void

/**
 * The request path's one hook (called by http/logged-fetch.ts as each answer leaves): a count
 * by method, route and status, and the latency by method and route. Labels are bounded: routes
 * as registered (unknown paths are "unmatched"), methods from a fixed set.
 */
export function httpMetrics(registry: MetricsRegistry, routes: Parameters<typeof routeTemplates>[0]): ObserveRequest {
  const routeOf = routeTemplates(routes)
  const requests = registry.counter('parley_http_requests_total', 'HTTP requests answered, by method, route and status.', ['method', 'route', 'status'])
  const latency = registry.histogram('parley_http_request_duration_seconds', 'Time to answer an HTTP request (to its headers), by method and route.', ['method', 'route'])
  return (method, path, status, durationMs) => {
    const known = METHODS.has(method) ? method : 'other'
    const route = routeOf(path)
    requests.inc([known, route, String(status)])
    latency.observe([known, route], durationMs / 1000)
  }
}
