import type { ObserveRequest } from '../http/logged-fetch.ts'
import type { MetricsRegistry } from './registry.ts'
import { routeTemplates } from './route-templates.ts'

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The request path's one hook (called by http/logged-fetch.ts as each answer leaves): a count
 * by method, route and status, and the latency by method and route. Labels are bounded: routes
 * as registered (unknown paths are "unmatched"), methods from a fixed set. Each method and
 * route keeps its series at hand, so a request costs the route's walk and two Map lookups.
 */
export function httpMetrics(registry: MetricsRegistry, routes: Parameters<typeof routeTemplates>[0]): ObserveRequest {
  const routeOf = routeTemplates(routes)
  const requests = registry.counter('parley_http_requests_total', 'HTTP requests answered, by method, route and status.', ['method', 'route', 'status'])
  const latency = registry.histogram('parley_http_request_duration_seconds', 'Time to answer an HTTP request (to its headers), by method and route.', ['method', 'route'])
  const byRoute = new Map<string, { method: string; route: string; statuses: Map<number, { value: number }>; latency: { observe(value: number): void } }>()
  return (method, path, status, durationMs) => {
    const known = METHODS.has(method) ? method : 'other'
    const route = routeOf(path)
    const key = `${known} ${route}`
    let series = byRoute.get(key)
    if (!series) byRoute.set(key, (series = { method: known, route, statuses: new Map(), latency: latency.series([known, route]) }))
    let count = series.statuses.get(status)
    if (!count) series.statuses.set(status, (count = requests.series([known, route, String(status)])))
    count.value++
    series.latency.observe(durationMs / 1000)
  }
}
