import { afterEach, describe, expect, test } from 'bun:test'
import { answerLimits } from '../../server/llm/answer-limits.ts'
import { callModel, type ModelCallOutcome } from '../../server/llm/call-model.ts'
import type { ChatRequestBody } from '../../server/llm/wire-format.ts'
import { fakeChatCompletions, type ScriptedReply } from './support/fake-chat-completions.ts'

const API_KEY = 'sk-test-0123456789abcdef'
let model: ReturnType<typeof fakeChatCompletions> | undefined
afterEach(() => model?.stop())

const body = (stream: boolean, extra: Partial<ChatRequestBody> = {}): ChatRequestBody => ({
  model: 'fake-1',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Where is my invoice?' },
  ],
  stream,
  ...(stream ? { stream_options: { include_usage: true } } : {}),
  ...extra,
})

async function call(replies: ScriptedReply[], stream: boolean, options: { timeoutMs?: number; onText?: (text: string) => void } = {}): Promise<ModelCallOutcome> {
  model = fakeChatCompletions(replies)
  return callModel({ baseUrl: model.baseUrl, apiKey: API_KEY }, body(stream), { fetch, timeoutMs: options.timeoutMs ?? 5_000, onText: options.onText })
}

describe('callModel over the chat-completions wire format', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'whole'
    test(`${mode}: a text answer comes back with its finish reason and usage`, async () => {
      const outcome = await call([{ text: 'Your invoice is on its way.', usage: { prompt_tokens: 12, completion_tokens: 7 } }], stream)
      expect(outcome).toEqual({
        kind: 'answer',
        answer: { content: 'Your invoice is on its way.', toolCalls: [], finishReason: 'stop', usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 } },
      })
      expect(model?.requests[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`)
      expect(model?.requests[0]?.body).toEqual(body(stream))
    })

    test(`${mode}: parallel tool calls come back whole, in order, with their arguments as written`, async () => {
      const outcome = await call(
        [{ toolCalls: [{ id: 'call_a', name: 'billing__find_invoice', arguments: '{"number":"INV-2041","year":2026}' }, { id: 'call_b', name: 'crm__lookup', arguments: '{"email": broken' }] }],
        stream,
      )
      expect(outcome).toEqual({
        kind: 'answer',
        answer: {
          content: null,
          toolCalls: [
            { id: 'call_a', type: 'function', function: { name: 'billing__find_invoice', arguments: '{"number":"INV-2041","year":2026}' } },
            { id: 'call_b', type: 'function', function: { name: 'crm__lookup', arguments: '{"email": broken' } },
          ],
          finishReason: 'tool_calls',
          usage: null,
        },
      })
    })
  }

  test('a streamed answer reaches onText fragment by fragment, as it is generated', async () => {
    const fragments: string[] = []
    const outcome = await call([{ text: 'Hello there, how can I help?', fragment: 5 }], true, { onText: (text) => fragments.push(text) })
    expect(fragments).toEqual(['Hello', ' ther', 'e, ho', 'w can', ' I he', 'lp?'])
    expect(outcome.kind === 'answer' && outcome.answer.content).toBe('Hello there, how can I help?')
  })

  test('a cut-off answer says so in its finish reason', async () => {
    const outcome = await call([{ text: 'A long', finishReason: 'length' }], true)
    expect(outcome.kind === 'answer' && outcome.answer.finishReason).toBe('length')
  })

  test('429 with Retry-After is worth retrying, after the time asked', async () => {
    const outcome = await call([{ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached' } } }], true)
    expect(outcome).toEqual({ kind: 'unavailable', status: 429, retryAfterMs: 7000, reason: 'HTTP 429: Rate limit reached' })
  })

  test('a server error is worth retrying', async () => {
    expect(await call([{ status: 503, body: { error: 'model is loading' } }], false)).toEqual({ kind: 'unavailable', status: 503, reason: 'HTTP 503: model is loading' })
  })

  test('a wrong key or an unknown model is refused for good, with the provider message and never the key', async () => {
    const outcome = await call([{ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }], true)
    expect(outcome).toEqual({ kind: 'refused', status: 401, reason: 'HTTP 401: Incorrect API key provided' })
    expect(JSON.stringify(outcome)).not.toContain(API_KEY)
  })

  test('a provider that echoes the key in its message does not put it in the reason (reasons reach the trace and the log)', async () => {
    const refused = await call([{ status: 401, body: { error: { message: `Invalid API key: ${API_KEY}. Check ${API_KEY}` } } }], false)
    expect(refused).toEqual({ kind: 'refused', status: 401, reason: `HTTP 401: Invalid API key: ••••${API_KEY.slice(-4)}. Check ••••${API_KEY.slice(-4)}` })
    const unavailable = await call([{ status: 502, body: `upstream refused Authorization: Bearer ${API_KEY}` }], false)
    expect(JSON.stringify(unavailable)).not.toContain(API_KEY)
    const cut = await call([{ status: 400, body: { error: `${'x'.repeat(290)} ${API_KEY}` } }], false)
    expect(JSON.stringify(cut)).not.toContain(API_KEY.slice(0, 9))
    const midStream = await call([{ failMidStream: `key ${API_KEY} over quota` }], true)
    expect(midStream).toEqual({ kind: 'unavailable', reason: `the provider failed mid-answer: key ••••${API_KEY.slice(-4)} over quota` })
  })

  test('a model that never answers times out', async () => {
    expect(await call([{ hang: true }], true, { timeoutMs: 200 })).toEqual({ kind: 'unavailable', reason: 'no answer within 200 ms' })
  })

  test('an answer that is not chat completions is a failure, not a crash', async () => {
    const outcome = await call([{ raw: '<html>Bad gateway</html>', contentType: 'application/json' }], false)
    expect(outcome.kind).toBe('unavailable')
    expect((outcome as { reason: string }).reason).toStartWith('not a chat-completions answer')
  })

  test('an error reported inside a stream ends the call as unavailable', async () => {
    expect(await call([{ failMidStream: 'upstream overloaded' }], true)).toEqual({ kind: 'unavailable', reason: 'the provider failed mid-answer: upstream overloaded' })
  })

  test('nothing listening is a network failure', async () => {
    const outcome = await callModel({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: null }, body(false), { fetch, timeoutMs: 2_000 })
    expect(outcome.kind).toBe('unavailable')
    expect((outcome as { reason: string }).reason).toStartWith('network error')
  })
})

describe('callModel and cancelling', () => {
  test('a call made with an already cancelled signal is not sent and says so at once', async () => {
    model = fakeChatCompletions([{ hang: true }])
    const cancelled = AbortSignal.abort()
    const outcome = await callModel({ baseUrl: model.baseUrl, apiKey: API_KEY }, body(true), { fetch, timeoutMs: 60_000, signal: cancelled })
    expect(outcome).toEqual({ kind: 'unavailable', reason: 'cancelled' })
    expect(model.requests).toHaveLength(0)
  })
})

describe('callModel within limits: what a provider sends is bounded', () => {
  const limited = (maxTokens: number) => answerLimits(maxTokens)
  const sseText = (chunks: unknown[]) => `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`
  const text = (content: string) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })

  test('text past 8 characters per max_tokens is dropped, from the answer and from what is streamed on; the answer says it was cut', async () => {
    model = fakeChatCompletions([{ text: 'word '.repeat(100), fragment: 7 }])
    const fragments: string[] = []
    const outcome = await callModel({ baseUrl: model.baseUrl, apiKey: null }, body(true, { max_tokens: 10 }), { fetch, timeoutMs: 5_000, limits: limited(10), onText: (f) => fragments.push(f) })
    expect(outcome).toMatchObject({ kind: 'answer', answer: { content: 'word '.repeat(16), cut: 'the text passed 80 characters (max_tokens 10); the rest was dropped' } })
    expect(fragments.join('')).toBe('word '.repeat(16))
    expect(model.requests[0]?.body.max_tokens).toBe(10)
  })

  test('a stream past the byte limit is not read further: its text so far stands, its tool calls are dropped', async () => {
    const chunks = [text('Hello'), { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'x__y', arguments: '{"q":"' } }] } }] }, ...Array.from({ length: 600 }, () => ({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'z'.repeat(4000) } }] } }] }))]
    const outcome = await call([{ raw: sseText(chunks), contentType: 'text/event-stream' }], true)
    expect(outcome).toMatchObject({ kind: 'answer', answer: { content: 'Hello', toolCalls: [], finishReason: 'length' } })
    expect((outcome as { answer: { cut: string } }).answer.cut).toStartWith('the answer passed 1048576 bytes (max_tokens 1024); the rest was not read, and its 1 tool calls were dropped')
  })

  test('a plain JSON answer past the byte limit is refused unread, not retried', async () => {
    const outcome = await call([{ raw: JSON.stringify({ choices: [{ message: { content: 'q'.repeat(2_000_000) } }] }), contentType: 'application/json' }], false)
    expect(outcome).toEqual({ kind: 'refused', status: 200, reason: 'the answer passed 1048576 bytes (max_tokens 1024); it was not read further' })
  })

  test('at most 64 tool calls are read from one answer, and usage keeps only its counts', async () => {
    const calls = Array.from({ length: 100 }, (_, k) => ({ choices: [{ index: 0, delta: { tool_calls: [{ index: k, id: `c${k}`, function: { name: 'x__y', arguments: '{}' } }] } }] }))
    const usage = { choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, junk: 'j'.repeat(10_000) } }
    const outcome = await call([{ raw: sseText([...calls, usage]), contentType: 'text/event-stream' }], true)
    const answer = (outcome as { answer: { toolCalls: unknown[]; cut: string; usage: unknown } }).answer
    expect(answer.toolCalls).toHaveLength(64)
    expect(answer.cut).toBe('36 more tool calls were dropped: at most 64 are read from one answer')
    expect(answer.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })
  })

  test('a model that streams forever is cut at the call deadline, though chunks keep coming', async () => {
    model = fakeChatCompletions([{ forever: { everyMs: 20 } }])
    const outcome = await callModel({ baseUrl: model.baseUrl, apiKey: null }, body(true), { fetch, timeoutMs: 1_000, deadlineMs: 300 })
    expect(outcome).toEqual({ kind: 'unavailable', reason: "no complete answer within the call's deadline of 300 ms" })
  })

  test('an error answer is read up to 64 KiB', async () => {
    const outcome = await call([{ status: 500, body: { error: { message: 'e'.repeat(200_000) } } }], false)
    expect(outcome).toMatchObject({ kind: 'unavailable', status: 500 })
    expect((outcome as { reason: string }).reason).toBe('HTTP 500: an error answer too long to read')
  })
})

