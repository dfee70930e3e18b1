import type { Logger } from '../support/logger.ts'
import { clientAddress } from './client-address.ts'
import { oversizedHead } from './oversized-head.ts'
import { problemResponse } from './problem.ts'
import { beginRequest, type RequestContext } from './request-context.ts'
import type { SecurityHeaders } from './security-headers.ts'

type Fetch = (request: Request) => Response | Promise<Response>

/** Told of every answered request (the metrics' request counters and durations). */
export type ObserveRequest = (method: string, path: string, status: number, durationMs: number) => void

/** A refused 16 KiB path is logged by its start: one request must not write a 16 KiB log line. */
const LOGGED_PATH_LIMIT = 1024

/**
 * Wraps the HTTP app: every request gets an id (kept from a sane X-Request-Id) before the app
 * sees it, a request head too large for Parley is refused before the app parses it, and every
 * answer gets its security headers and one structured log line. Done here rather than in the
 * app's hooks so that what is logged and secured is what is sent, errors included. A response
 * the app gives at once is passed on at once: Bun answers those on a faster path than promises.
 */
export function loggedFetch(fetch: Fetch, logger: Logger, secure: SecurityHeaders, observe?: ObserveRequest): Fetch {
  const failed = (context: RequestContext, error: unknown): Response => {
    logger.error('unhandled error', { request_id: context.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    return problemResponse({
      status: 500,
      code: 'internal_error',
      detail: 'an unexpected error occurred; quote the request id when reporting it',
      requestId: context.id,
    })
  }
  const finish = (request: Request, context: RequestContext, response: Response): Response => {
    const path = pathOf(request.url)
    response.headers.set('x-request-id', context.id)
    secure(path, response)
    const logged = loggablePath(path)
    const durationMs = performance.now() - context.startedAt
    observe?.(request.method, path, response.status, durationMs)
    logger.info('request', {
      method: request.method,
      path: logged.length > LOGGED_PATH_LIMIT ? `${logged.slice(0, LOGGED_PATH_LIMIT)}...` : logged,
      status: response.status,
      duration_ms: Math.round(durationMs * 100) / 100,
      request_id: context.id,
      client_ip: clientAddress(request),
    })
    return response
  }
  return (request) => {
    const context = beginRequest(request)
    let answer: Response | Promise<Response>
    try {
      answer = oversizedHead(request, context.id) ?? fetch(request)
    } catch (error) {
      return finish(request, context, failed(context, error))
    }
    if (answer instanceof Response) return finish(request, context, answer)
    return answer.then(
      (response) => finish(request, context, response),
      (error: unknown) => finish(request, context, failed(context, error)),
    )
  }
}

/** The path of an absolute URL, without building a URL object on every request. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const end = url.indexOf('?', start)
  return end < 0 ? url.slice(start) : url.slice(start, end)
}

/** An attachment's address holds its key, the permission to read the file: the log keeps the id only. */
function loggablePath(path: string): string {
  if (!path.startsWith('/attachments/')) return path
  const id = path.slice('/attachments/'.length).split('/', 1)[0]
  return `/attachments/${id}/...`
}
