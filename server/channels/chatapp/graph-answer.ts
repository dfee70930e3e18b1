import type { AttemptOutcome } from '../../outbox/retry-policy.ts'
import { parseRetryAfter } from '../../outbox/retry-policy.ts'

/** The Graph API's error object: `{error: {message, type, code, error_subcode, error_data: {details}, fbtrace_id}}`. */
export interface GraphError {
  message?: string
  type?: string
  code?: number
  error_subcode?: number
  error_data?: { details?: string }
  fbtrace_id?: string
}

/**
 * Graph API codes that mean "too many, slow down": tried again on the backoff schedule,
 * whatever the HTTP status (the provider answers most of them with 400).
 * 4, 17, 32, 613: API call limits; 80007: the business account's rate limit; 130429:
 * Cloud API throughput; 131048: spam rate limit; 131056: too many messages to one user.
 */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([4, 17, 32, 613, 80007, 130429, 131048, 131056])

/** Codes for a request the provider cannot take as built: a flow message is then sent as text. */
export const PARAMETER_CODES: ReadonlySet<number> = new Set([100, 131008, 131009])

/** What the delivery log adds to the provider's words for the errors people meet most. */
const HINTS: Record<number, string> = {
  190: 'the access_token is not valid (expired or revoked): PATCH the chatapp integration with a new one',
  131047:
    'the user last wrote more than 24 hours ago: outside that customer service window the provider takes only approved template messages, until the user writes again',
  131026: 'the provider could not deliver it to this user (not on the messaging app, or an old app version)',
  131030: "the user's number is not on the test number's list of allowed recipients",
}

const MAX_ERROR_LENGTH = 500

export type GraphOutcome = AttemptOutcome & { graphCode?: number }

/**
 * The provider's answer as an attempt outcome: a 2xx with `messages[0].id` is accepted and
 * that id (the wamid) becomes the receipt; rate limits (HTTP 429 or a rate-limit code) and
 * server errors (5xx) are tried again; any other error is final, with the provider's message.
 */
export function readGraphAnswer(status: number, headers: Headers, text: string, now: number): GraphOutcome {
  const json = parseJson(text)
  if (status >= 200 && status < 300) {
    const id = (json as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id
    return { kind: 'response', status, retryAfterMs: null, snippet: '', receipt: typeof id === 'string' && id ? id : null }
  }
  const error = (json as { error?: GraphError } | null)?.error
  const graphCode = typeof error?.code === 'number' ? error.code : undefined
  const described = error ? describeGraphError(error) : describeText(status, text)
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), now)
  if (status === 429 || (graphCode !== undefined && RATE_LIMIT_CODES.has(graphCode))) {
    return { kind: 'throttled', status, retryAfterMs, error: described, graphCode }
  }
  if (status >= 500 || status === 408) return { kind: 'response', status, retryAfterMs, snippet: described, graphCode }
  return { kind: 'rejected', status, error: described, graphCode }
}

/** "Graph API error 131047: Re-engagement message (More than 24 hours ...) [fbtrace_id ...]: hint". */
export function describeGraphError(error: GraphError): string {
  const code = typeof error.code === 'number' ? error.code : undefined
  const message = (error.message ?? '').replace(/^\(#\d+\)\s*/, '').trim() || 'no message'
  const details = error.error_data?.details?.trim()
  const parts = [`Graph API error${code !== undefined ? ` ${code}` : ''}${error.error_subcode ? `/${error.error_subcode}` : ''}: ${message}`]
  if (details && details !== message) parts.push(`(${details})`)
  if (error.fbtrace_id) parts.push(`[fbtrace_id ${error.fbtrace_id}]`)
  const hint = code !== undefined ? HINTS[code] : undefined
  const text = parts.join(' ') + (hint ? `: ${hint}` : '')
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text
}

function describeText(status: number, text: string): string {
  const snippet = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim().slice(0, 200)
  const hint = status === 401 ? ': the access_token is not valid: PATCH the chatapp integration with a new one' : ''
  return snippet ? `the provider answered without a Graph API error: ${snippet}${hint}` : `the provider answered without a body${hint}`
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
