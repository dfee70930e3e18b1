import type { ChatRequestBody } from '../../../server/llm/wire-format.ts'

/** What the fake model answers to one request. */
export type ScriptedReply =
  | {
      text?: string
      toolCalls?: { id?: string; name: string; arguments: string }[]
      finishReason?: string
      usage?: { prompt_tokens: number; completion_tokens: number }
      /** Streamed text is cut into fragments of this many characters (default 4). */
      fragment?: number
      /** Before the answer starts. */
      delayMs?: number
      /** Between streamed chunks (default 1 ms): an answer that visibly arrives piece by piece. */
      chunkDelayMs?: number
      /** Called once the last chunk was sent. */
      onSent?: () => void
    }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
  /** Sent as is, with this content type. */
  | { raw: string; contentType: string }
  /** A stream that starts well and then reports an error chunk. */
  | { failMidStream: string }
  /** A stream that never ends: a text fragment every `everyMs`, until the client goes away. */
  | { forever: { everyMs: number; fragment?: string } }

export interface RecordedRequest {
  body: ChatRequestBody
  headers: Headers
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers from a script, in
 * the real wire format: JSON, or server-sent events when the request asks to stream, with tool
 * calls spread over chunks as providers send them (id and name first, the arguments in
 * fragments), `finish_reason`, usage when `stream_options.include_usage` is set, `[DONE]`.
 */
export function fakeChatCompletions(reply: ScriptedReply[] | ((body: ChatRequestBody, index: number) => ScriptedReply) = []) {
  const requests: RecordedRequest[] = []
  const script = Array.isArray(reply) ? reply : null
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      if (new URL(request.url).pathname !== '/v1/chat/completions' || request.method !== 'POST') return new Response('not found', { status: 404 })
      const body = (await request.json()) as ChatRequestBody
      requests.push({ body, headers: request.headers })
      const index = requests.length - 1
      const next = script ? script.shift() : (reply as (body: ChatRequestBody, index: number) => ScriptedReply)(body, index)
      if (!next) return Response.json({ error: { message: 'the fake model has no scripted reply left' } }, { status: 500 })
      return answer(next, body)
    },
  })
  return {
    /** The base URL a chatbot's `llm.base_url` takes. */
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests,
    /** Replies to add to the script (when it is a list). */
    push: (...more: ScriptedReply[]) => script?.push(...more),
    stop: () => server.stop(true),
  }
}

let completionCount = 0

async function answer(reply: ScriptedReply, body: ChatRequestBody): Promise<Response> {
  if ('hang' in reply) return new Promise<Response>(() => {})
  if ('status' in reply) return Response.json(reply.body ?? { error: { message: `scripted ${reply.status}` } }, { status: reply.status, headers: reply.headers })
  if ('raw' in reply) return new Response(reply.raw, { headers: { 'content-type': reply.contentType } })
  const id = `chatcmpl-${++completionCount}`
  const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model }
  if ('forever' in reply) {
    const { everyMs, fragment = 'and so on ' } = reply.forever
    const encoder = new TextEncoder()
    let timer: ReturnType<typeof setInterval> | undefined
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: fragment }, finish_reason: null }] })}\n\n`))
          } catch {
            clearInterval(timer)
          }
        }, everyMs)
      },
      cancel: () => clearInterval(timer),
    })
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
  }
  if ('failMidStream' in reply) {
    return sse([{ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Let me' }, finish_reason: null }] }, { error: { message: reply.failMidStream } }], false)
  }
  if (reply.delayMs) await Bun.sleep(reply.delayMs)
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({ id: call.id ?? `call_${id}_${i}`, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }))
  const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop')
  const usage = reply.usage ? { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } : undefined
  if (!body.stream) {
    return Response.json({
      id,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: finishReason }],
      ...(usage ? { usage } : {}),
    })
  }
  const chunks: unknown[] = [{ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }]
  const size = reply.fragment ?? 4
  for (let at = 0; reply.text && at < reply.text.length; at += size) {
    chunks.push({ ...base, choices: [{ index: 0, delta: { content: reply.text.slice(at, at + size) }, finish_reason: null }] })
  }
  toolCalls.forEach((call, index) => {
    chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }] })
    const args = call.function.arguments
    for (let at = 0; at < args.length; at += 5) {
      chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(at, at + 5) } }] }, finish_reason: null }] })
    }
  })
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })
  if (usage && body.stream_options?.include_usage) chunks.push({ ...base, choices: [], usage })
  return sse(chunks, true, reply.chunkDelayMs, reply.onSent)
}

function sse(chunks: unknown[], done: boolean, chunkDelayMs = 1, onSent?: () => void): Response {
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`))
        await Bun.sleep(chunkDelayMs)
      }
      if (done) controller.enqueue(encoder.encode('data: [DONE]\n\n'))
      controller.close()
      onSent?.()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
}
