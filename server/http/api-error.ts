export interface FieldError {
  /** JSON Pointer (RFC 6901) to the offending value within its request part. */
  path: string
  message: string
  /** Present where a finer machine-readable reason exists (flow validation codes). */
  code?: string
}

/**
 * The one error type that services and routes throw for a client's mistake or a conflict.
 * It is rendered as RFC 9457 problem details in one place (problem.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail)
    this.name = 'ApiError'
  }
}

export const badRequest = (code: string, detail: string) => new ApiError(400, code, detail)

export const unauthorized = (detail: string) =>
  new ApiError(401, 'unauthorized', detail, undefined, { 'www-authenticate': 'Bearer' })

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`)

export const conflict = (code: string, detail: string) => new ApiError(409, code, detail)

export const unprocessable = (code: string, detail: string, errors?: FieldError[]) =>
  new ApiError(422, code, detail, errors)

/** A 422 for one field, the common case of a rule a schema cannot express. */
export const invalidField = (path: string, message: string) =>
  unprocessable('validation_failed', `${path.slice(1).replaceAll('/', '.')} ${message}`, [{ path, message }])
