import { maskSecret } from '../integrations/mask-secret.ts'
import { answerAssembler } from './answer-assembler.ts'
import { type AnswerLimits, answerLimits } from './answer-limits.ts'
import { serverSentData } from './server-sent-events.ts'
import type { ChatRequestBody, ModelAnswer } from './wire-format.ts'

export interface ModelEndpoint {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string
  apiKey: string | null
}

export type ModelCallOutcome =
  | { kind: 'answer'; answer: ModelAnswer }
  /** Worth trying again later: rate limits, server errors, timeouts, networks, garbled answers. */
  | { kind: 'unavailable'; reason: string; status?: number; retryAfterMs?: number }
  /** Trying again will not help: a wrong key, an unknown model, a request the provider refuses. */
  | { kind: 'refused'; reason: string; status: number }

export interface CallModelOptions {
  /** The HTTP client: the outbound-address policy's pinned fetch in the server. */
  fetch: (url: string, init: RequestInit) => Promise<Response>
  /** Until the answer starts, and then between two streamed chunks. */
  timeoutMs: number
  /** The whole call, from sending to the answer's end, however steadily it streams. */
  deadlineMs?: number
  /** What is read and kept of the answer (answerLimits of the call's max_tokens). */
  limits?: AnswerLimits
  signal?: AbortSignal
  /** Each text fragment of a streamed answer, as it arrives. */
  onText?: (fragment: string) => void
}

/** Longest provider message quoted in a reason (they can echo whole requests). */
const REASON_LENGTH = 300
/** Bytes of an error answer read for its message. */
const ERROR_BODY_BYTES = 64 * 1024
/** A whole call's deadline when none is given. */
export const DEFAULT_CALL_DEADLINE_MS = 120_000

/**
 * One chat-completions call, streamed or not (`body.stream`), turned into an answer or a
 * classified failure; it never throws for what the provider or the network does.
 */
export async function callModel(endpoint: ModelEndpoint, body: ChatRequestBody, options: CallModelOptions): Promise<ModelCallOutcome> {
  // An abort listener added now would never fire: a call made after the cancel is not sent.
  if (options.signal?.aborted) return { kind: 'unavailable', reason: 'cancelled' }
  const controller = new AbortController()
  const abort = () => controller.abort()
  options.signal?.addEventListener('abort', abort)
  const limits = options.limits ?? answerLimits()
  const deadlineMs = options.deadlineMs ?? DEFAULT_CALL_DEADLINE_MS
  let timedOut: 'idle' | 'deadline' | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const armTimer = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      timedOut = 'idle'
      controller.abort()
    }, options.timeoutMs)
  }
  // A model that streams forever sends a chunk before every idle timeout: this one ends it.
  const deadline = setTimeout(() => {
    timedOut = 'deadline'
    controller.abort()
  }, deadlineMs)
  const failed = (error: unknown): ModelCallOutcome => ({
    kind: 'unavailable',
    reason:
      timedOut === 'deadline'
        ? `no complete answer within the call's deadline of ${deadlineMs} ms`
        : timedOut === 'idle'
          ? `no answer within ${options.timeoutMs} ms`
          : options.signal?.aborted
            ? 'cancelled'
            : `network error: ${(error as Error).message}`,
  })
  armTimer()
  try {
    let response: Response
    try {
      response = await options.fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: body.stream ? 'text/event-stream' : 'application/json',
          ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: controller.signal,
      })
    } catch (error) {
      return failed(error)
    }
    if (!response.ok) return await refusal(response, endpoint.apiKey)
    try {
      const streamed = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      if (streamed && response.body) return await readStream(response.body, armTimer, endpoint.apiKey, limits, options.onText)
      const text = await readAtMost(response, limits.maxResponseBytes)
      if (text === null) {
        // Half a JSON document is no answer; asking again would bring the same.
        return { kind: 'refused', reason: `the answer passed ${limits.maxResponseBytes} bytes (max_tokens ${limits.maxTokens}); it was not read further`, status: response.status }
      }
      return readWhole(JSON.parse(text), limits)
    } catch (error) {
      if (controller.signal.aborted) return failed(error)
      return { kind: 'unavailable', reason: `not a chat-completions answer: ${(error as Error).message}` }
    }
  } finally {
    clearTimeout(timer)
    clearTimeout(deadline)
    options.signal?.removeEventListener('abort', abort)
  }
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void,
  apiKey: string | null,
  limits: AnswerLimits,
  onText?: (fragment: string) => void,
): Promise<ModelCallOutcome> {
  const assembler = answerAssembler(limits)
  let bytesCut = false
  for await (const data of serverSentData(body, { maxBytes: limits.maxResponseBytes, onCut: () => (bytesCut = true) })) {
    onChunk()
    if (data.trim() === '[DONE]') break
    const chunk = JSON.parse(data) as { error?: unknown }
    // Some providers report a failure inside an already started stream.
    if (chunk.error) return { kind: 'unavailable', reason: `the provider failed mid-answer: ${providerMessage(chunk, apiKey)}` }
    const text = assembler.add(chunk)
    if (text) onText?.(text)
  }
  const answer = assembler.answer()
  if (!bytesCut) return { kind: 'answer', answer }
  // Cut mid-answer: the text so far stands (cut), but no tool call can be trusted to be whole.
  const why = `the answer passed ${limits.maxResponseBytes} bytes (max_tokens ${limits.maxTokens}); the rest was not read${answer.toolCalls.length ? `, and its ${answer.toolCalls.length} tool calls were dropped` : ''}`
  return { kind: 'answer', answer: { ...answer, toolCalls: [], finishReason: answer.finishReason ?? 'length', cut: answer.cut ? `${why}; ${answer.cut}` : why } }
}

/** The body as text, or null when it is longer than `maxBytes` (then it is not read further). */
async function readAtMost(response: Response, maxBytes: number): Promise<string | null> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

function readWhole(json: unknown, limits: AnswerLimits): ModelCallOutcome {
  const record = json as { choices?: { message?: { content?: string | null; tool_calls?: unknown }; finish_reason?: string | null }[]; usage?: unknown }
  const choice = record?.choices?.[0]
  if (!choice?.message) return { kind: 'unavailable', reason: 'not a chat-completions answer: no choices[0].message' }
  const assembler = answerAssembler(limits)
  const calls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : []
  assembler.add({
    choices: [
      {
        delta: { content: choice.message.content ?? null, tool_calls: calls.map((call: object, index: number) => ({ index, ...call })) },
        finish_reason: choice.finish_reason ?? null,
      },
    ],
    usage: record.usage,
  })
  return { kind: 'answer', answer: assembler.answer() }
}

async function refusal(response: Response, apiKey: string | null): Promise<ModelCallOutcome> {
  const text = (await readAtMost(response, ERROR_BODY_BYTES).catch(() => '')) ?? 'an error answer too long to read'
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  const reason = `HTTP ${response.status}: ${providerMessage(parsed, apiKey)}`
  const { status } = response
  if (status === 408 || status === 409 || status === 429 || status >= 500) {
    const retryAfterMs = retryAfter(response.headers.get('retry-after'))
    return { kind: 'unavailable', reason, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
  }
  return { kind: 'refused', reason, status }
}

/**
 * `{error: {message}}` (OpenAI and most others), `{error: "..."}` (Ollama), or the text. Some
 * providers and proxies quote the key they were sent: it is masked before the message is cut
 * (a cut key would still give its start away), since reasons reach the trace and the log.
 */
function providerMessage(body: unknown, apiKey: string | null): string {
  const error = (body as { error?: unknown } | null)?.error
  const message = typeof error === 'string' ? error : typeof (error as { message?: unknown })?.message === 'string' ? (error as { message: string }).message : null
  const quoted = message ?? (typeof body === 'string' ? body : JSON.stringify(body))
  const text = apiKey ? quoted.replaceAll(apiKey, maskSecret(apiKey)) : quoted
  return text.length > REASON_LENGTH ? `${text.slice(0, REASON_LENGTH)}…` : text || 'no details'
}

/** Seconds or an HTTP date, as RFC 9110 allows. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}
