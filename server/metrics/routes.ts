import { Elysia, t } from 'elysia'
import { ApiError } from '../http/api-error.ts'
import { clientAddress } from '../http/client-address.ts'
import { errorResponses } from '../http/error-responses.ts'
import type { TrustedProxies } from '../http/trusted-proxies.ts'
import { constantTimeEqual } from '../support/constant-time-equal.ts'

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * GET /metrics for Prometheus: readable with PARLEY_METRICS_TOKEN as a Bearer token (compared
 * in constant time), or from a trusted address (PARLEY_TRUSTED_PROXIES) when the request comes
 * from it and not through it: a client a proxy forwards is judged by its own address.
 */
export function metricsRoutes(options: { token: string | null; proxies: TrustedProxies; render: () => string }) {
  const { token, proxies, render } = options
  const admitted = (request: Request): boolean => {
    const authorization = request.headers.get('authorization')
    if (token && authorization?.startsWith('Bearer ') && constantTimeEqual(authorization.slice(7), token)) return true
    return proxies.trusts(clientAddress(request))
  }
  return new Elysia().get(
    '/metrics',
    ({ request }) => {
      if (!admitted(request)) {
        throw new ApiError(
          401,
          'metrics_unauthorized',
          'send PARLEY_METRICS_TOKEN as "Authorization: Bearer <token>", or read /metrics from an address in PARLEY_TRUSTED_PROXIES',
          undefined,
          { 'www-authenticate': 'Bearer realm="metrics"' },
        )
      }
      return new Response(render(), { headers: { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' } })
    },
    {
      response: { 200: t.String({ description: 'the Prometheus text format (version 0.0.4)' }), ...errorResponses(401) },
      detail: {
        tags: ['Operations'],
        summary: 'Metrics for Prometheus',
        description:
          'Requests by route and status with latency histograms, open widget and desk sockets, messages per channel, the outbox, LLM agent runs and tokens, the database and the backups. Read with `PARLEY_METRICS_TOKEN` as a Bearer token, or from an address in `PARLEY_TRUSTED_PROXIES`.',
        security: [],
      },
    },
  )
}
