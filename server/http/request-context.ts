import { randomToken } from '../support/random-token.ts'

export interface RequestContext {
  id: string
  startedAt: number
}

const contexts = new WeakMap<Request, RequestContext>()
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
  contexts.set(request, context)
  return context
}

export function requestContext(request: Request): RequestContext | undefined {
  return contexts.get(request)
}
