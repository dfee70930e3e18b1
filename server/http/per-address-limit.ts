import { Elysia } from 'elysia'
import { ApiError } from './api-error.ts'
import { addressGroup, clientAddress } from './client-address.ts'
import { rateLimiter } from './rate-limiter.ts'

/**
 * A rate limit per client IP for the routes of the module that uses it: for public routes,
 * which have no API key to count against (webhook handshakes, the widget's configuration).
 * An IPv6 client counts by its /64, which it could otherwise walk through address by address.
 */
export function perAddressLimit(perMinute: number) {
  const limit = rateLimiter(perMinute)
  return new Elysia().onBeforeHandle({ as: 'scoped' }, ({ request }) => {
    const decision = limit(addressGroup(clientAddress(request)))
    if (!decision.allowed) {
      throw new ApiError(429, 'rate_limited', `too many requests from this address; retry in ${decision.retryAfter} s`, undefined, {
        'retry-after': String(decision.retryAfter),
      })
    }
  })
}
