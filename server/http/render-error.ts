import { ValidationError } from 'elysia'
import type { Logger } from '../support/logger.ts'
import { ApiError } from './api-error.ts'
import { describeSchemaErrors } from './describe-schema-errors.ts'
import { problemResponse } from './problem.ts'
import { requestContext } from './request-context.ts'

const PARTS: Record<string, string> = {
  body: 'the request body',
  query: 'the query string',
  params: 'the path',
  property: 'the query string',
  headers: 'the request headers',
}

export interface RenderErrorInput {
  code: string | number
  error: unknown
  request: Request
  /** Methods that the path does answer to, when it exists under another method. */
  allowedMethods: (path: string) => string[]
  logger: Logger
}

/** The one place that turns anything thrown while serving the API into problem+json. */
export function renderError({ code, error, request, allowedMethods, logger }: RenderErrorInput): Response {
  const requestId = requestContext(request)?.id
  return toResponse()

  function toResponse(): Response {
    // Elysia wraps whatever the body parser throws; the parser's own ApiError says it better.
    if (code === 'PARSE' && error instanceof Error && error.cause instanceof ApiError) error = error.cause
    if (error instanceof ApiError) {
      const { status, code, detail, errors, headers } = error
      return problemResponse({ status, code, detail, errors }, headers)
    }
    if (error instanceof ValidationError && error.type !== 'response') {
      const errors = describeSchemaErrors(error.all)
      const where = PARTS[error.type] ?? 'the request'
      const detail = `${where} is invalid: ${errors.map((e) => `${e.path ? e.path.slice(1).replaceAll('/', '.') : 'body'} ${e.message}`).join('; ')}`
      return problemResponse({ status: 422, code: 'validation_failed', detail, errors })
    }
    if (code === 'NOT_FOUND') {
      const path = new URL(request.url).pathname
      const allow = allowedMethods(path)
      if (allow.length > 0) {
        const detail = `${request.method} is not allowed on ${path}; use ${allow.join(', ')}`
        return problemResponse({ status: 405, code: 'method_not_allowed', detail }, { allow: allow.join(', ') })
      }
      return problemResponse({ status: 404, code: 'not_found', detail: `no route for ${request.method} ${path}` })
    }
    if (code === 'PARSE') {
      return problemResponse({ status: 400, code: 'malformed_body', detail: 'the body could not be parsed' })
    }
    logger.error('unhandled error', {
      request_id: requestId,
      method: request.method,
      path: new URL(request.url).pathname,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    return problemResponse({
      status: 500,
      code: 'internal_error',
      detail: 'an unexpected error occurred; quote the request id when reporting it',
      requestId,
    })
  }
}
