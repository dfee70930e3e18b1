import type { FieldError } from './api-error.ts'

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  code: string
  request_id?: string
  errors?: FieldError[]
}

/** Builds the problem+json response every error of the API is rendered as. */
export function problemResponse(
  problem: { status: number; code: string; detail: string; errors?: FieldError[]; requestId?: string },
  headers: Record<string, string> = {},
): Response {
  const body: Problem = {
    type: `/api/dev/v1/reference#problem-${problem.code}`,
    title: TITLES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
  }
  if (problem.errors && problem.errors.length > 0) body.errors = problem.errors
  if (problem.requestId) body.request_id = problem.requestId
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { ...headers, 'content-type': 'application/problem+json' },
  })
}
