import { McpNetworkError } from '../mcp/pinned-fetch.ts'
import type { ModelCallOutcome } from './call-model.ts'

export const MODEL_FAILURE_KINDS = [
  'dns',
  'refused',
  'tls',
  'timeout',
  'blocked_address',
  'unauthorized',
  'not_found',
  'rate_limited',
  'provider_error',
  'bad_request',
  'bad_answer',
  'no_model',
  'no_answer',
] as const
export type ModelFailureKind = (typeof MODEL_FAILURE_KINDS)[number]

/**
 * Why the model could not be used, worded by Parley for the person who set it up: never the
 * provider's own text (it can quote the request, the key included) and never a secret.
 */
export interface ModelFailure {
  kind: ModelFailureKind
  message: string
  /** The status of the provider's last answer, when there was one. */
  http_status: number | null
}

/** What one model call's exchange showed, noted by `watchedFetch` as the call went. */
export interface ModelExchangeNote {
  /** The network failure the pinned fetch classified (DNS, refused, TLS, blocked address). */
  network?: McpNetworkError
  answer?: { status: number; contentType: string }
  /** The call's own signal fired: its timer, unless the caller cancelled it. */
  aborted?: boolean
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>

/** The fetch a model call goes through, noting what classifying its failure needs. */
export function watchedFetch(fetch: Fetch): { fetch: Fetch; note: ModelExchangeNote } {
  const note: ModelExchangeNote = {}
  return {
    note,
    fetch: async (url, init) => {
      init.signal?.addEventListener('abort', () => {
        note.aborted = true
      })
      try {
        const response = await fetch(url, init)
        note.answer = { status: response.status, contentType: response.headers.get('content-type') ?? '' }
        return response
      } catch (error) {
        if (error instanceof McpNetworkError) note.network = error
        throw error
      }
    },
  }
}

export interface FailedCall {
  outcome: Exclude<ModelCallOutcome, { kind: 'answer' }>
  note: ModelExchangeNote
  endpoint: { baseUrl: string; model: string; hasKey: boolean }
  timeoutMs: number
}

/** Sorts a failed model call into a kind a person can act on (the MCP connection test's kinds, and the model's own). */
export function classifyModelFailure({ outcome, note, endpoint, timeoutMs }: FailedCall): ModelFailure {
  const status = outcome.status ?? note.answer?.status ?? null
  if (note.network) {
    const kind = note.network.kind === 'network' ? 'refused' : note.network.kind
    if (kind === 'timeout') return { kind, message: `connecting to ${hostOf(endpoint.baseUrl)} took too long`, http_status: null }
    return { kind, message: note.network.message, http_status: null }
  }
  if (outcome.status === undefined && note.aborted) {
    // callModel's own words for its whole-call deadline (the chatbot's call_deadline_ms).
    if (outcome.reason.startsWith("no complete answer within the call's deadline")) return { kind: 'timeout', message: `the model's answer was not complete within the call's deadline: ${outcome.reason.replace(/^no complete answer within /, '')}`, http_status: null }
    return { kind: 'timeout', message: `the model did not answer within ${seconds(timeoutMs)} s (no first byte, or a pause that long in its answer)`, http_status: null }
  }
  // A 2xx refused by Parley itself: an answer past what max_tokens lets Parley read.
  if (outcome.kind === 'refused' && outcome.status >= 200 && outcome.status < 300) {
    return { kind: 'no_answer', message: `the model's answer was too large to read (${outcome.reason.replace(/^the answer /, '')}): lower max_tokens, or check the model`, http_status: outcome.status }
  }
  switch (true) {
    case outcome.status === 401 || outcome.status === 403:
      return {
        kind: 'unauthorized',
        message: `the provider refused Parley's credentials (HTTP ${outcome.status}): ${endpoint.hasKey ? 'check the API key and what it may use' : 'no API key is set; most hosted providers need one'}`,
        http_status: status,
      }
    case outcome.status === 404:
      return isJson(note.answer?.contentType)
        ? { kind: 'not_found', message: `the provider does not know the model "${clip(endpoint.model)}" (HTTP 404): check the model name`, http_status: 404 }
        : { kind: 'not_found', message: `nothing answers at ${clip(endpoint.baseUrl)}/chat/completions (HTTP 404): check the base URL (it usually ends in /v1)`, http_status: 404 }
    case outcome.status === 429:
      return {
        kind: 'rate_limited',
        message: `the provider is limiting requests, or the account has no credit left (HTTP 429)${outcome.kind === 'unavailable' && outcome.retryAfterMs !== undefined ? `; it asks to wait ${seconds(outcome.retryAfterMs)} s` : ''}`,
        http_status: 429,
      }
    case outcome.status !== undefined && (outcome.status >= 500 || outcome.status === 408 || outcome.status === 409):
      return { kind: 'provider_error', message: `the provider failed (HTTP ${outcome.status}); it may work again later`, http_status: status }
    case outcome.status !== undefined:
      return { kind: 'bad_request', message: `the provider refused the request (HTTP ${outcome.status}): the model may not take tools, or these settings`, http_status: status }
  }
  // Answered 2xx, then no usable answer. callModel words a stream's own error report so.
  if (outcome.reason.startsWith('the provider failed mid-answer')) {
    return { kind: 'provider_error', message: 'the provider failed mid-answer; it may work again later', http_status: status }
  }
  const type = note.answer?.contentType.split(';')[0]?.trim() || 'no content type'
  return {
    kind: 'bad_answer',
    message: `${clip(endpoint.baseUrl)} answers (${type}), but not as an OpenAI-compatible chat-completions API: check the base URL`,
    http_status: status,
  }
}

const isJson = (contentType: string | undefined) => /json/i.test(contentType ?? '')
const seconds = (ms: number) => Math.round(ms / 100) / 10

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return clip(url)
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
