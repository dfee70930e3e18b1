import { randomToken } from '../support/random-token.ts'

export interface RequestContext {
  id: string
  startedAt: number
}

// On the request itself rather than in a WeakMap: a WeakMap entry per request is an ephemeron
// the garbage collector must revisit, and the collector's threads cost more than the serving
// thread's own work per request (bench:profile http).
const CONTEXT = Symbol('parley.requestContext')
type WithContext = Request & { [CONTEXT]?: RequestContext }
const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/
// Unique, not secret: a per-process random stem and a counter cost nothing per request.
const stem = `req_${randomToken(8)}`
let counter = 0

/** Starts the bookkeeping of one request; a sane incoming X-Request-Id is kept for tracing. */
export function beginRequest(request: Request): RequestContext {
  const incoming = request.headers.get('x-request-id')
  const context = {
    id: incoming && INCOMING_ID.test(incoming) ? incoming : `${stem}${(++counter).toString(36).padStart(6, '0')}`,
    startedAt: performance.now(),
  }
  ;(request as WithContext)[CONTEXT] = context
  return context
}

export function requestContext(request: Request): RequestContext | undefined {
  return (request as WithContext)[CONTEXT]
}
