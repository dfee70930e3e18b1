import { t } from './i18n/language.ts'

/**
 * The one way the app talks to the server: JSON over the developer API with the session
 * cookie (same origin, so the browser sends Origin and the cookie by itself). A problem+json
 * answer becomes an ApiError carrying its status, code and detail for the screen to show.
 */
export const API = '/api/dev/v1'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail)
  }
}

/** Called when the server says the session is gone (401), so the app can show sign-in. */
let onSignedOut: () => void = () => {}
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(`${API}${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw unreachable()
  }
  if (response.status === 204) return undefined as T
  const parsed = parseJson(await response.text())
  if (!response.ok) throw refused(response.status, path, parsed)
  return parsed as T
}

/** What a request that never reached the server throws. */
export const unreachable = () => new ApiError(0, 'network', t('shell.unreachable'))

/** A JSON body, or null when there is none or it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return null
  }
}

/** The server's refusal (problem details) as an ApiError; a 401 outside sign-in means the session is gone. */
export function refused(status: number, path: string, parsed: unknown): ApiError {
  const problem = (parsed ?? {}) as Record<string, unknown>
  if (status === 401 && !path.startsWith('/auth/sign-in') && !path.startsWith('/auth/accept-invite')) onSignedOut()
  return new ApiError(
    status,
    typeof problem.code === 'string' ? problem.code : 'http_' + status,
    typeof problem.detail === 'string' ? problem.detail : t('shell.answered', { status }),
    problem,
  )
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}
