#!/usr/bin/env bun
/**
 * The model of bench:agent: an OpenAI-compatible chat-completions server on 127.0.0.1 that
 * takes a fixed time (LATENCY_MS, default 200) before it answers, streamed as a provider does.
 * A question gets a call of the `bench__echo` tool; the tool's result gets a text answer. Its
 * own process, so that its CPU is not counted as Parley's. Prints "listening PORT".
 * Its own time per conversation (from a request's arrival to its answer, summed over the
 * conversation's calls, keyed by the visitor's first message) is at GET /own-times, so that the
 * bench subtracts only what the model itself took, not Parley's HTTP client around it. The tool
 * call carries that same message as its `text`, for the tool server to key its own time by.
 */
export {}

const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200)
const encoder = new TextEncoder()
let served = 0
const ownTimes = new Map<string, number>()

function sse(chunks: unknown[]): Response {
  const body = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n'
  return new Response(encoder.encode(body), { headers: { 'content-type': 'text/event-stream' } })
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  async fetch(request) {
    if (request.method === 'GET' && new URL(request.url).pathname === '/own-times') return Response.json(Object.fromEntries(ownTimes))
    const arrived = performance.now()
    const body = (await request.json()) as { model: string; messages: { role: string; content: string | null }[] }
    const question = body.messages.find((message) => message.role === 'user')?.content ?? ''
    const response = await answer(body, question)
    ownTimes.set(question, (ownTimes.get(question) ?? 0) + performance.now() - arrived)
    return response
  },
})

async function answer(body: { model: string; messages: { role: string; content: string | null }[] }, question: string): Promise<Response> {
  await Bun.sleep(LATENCY_MS)
  const id = `chatcmpl-${++served}`
  const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model }
  const usage = { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 }
  const last = body.messages.at(-1)
  if (last?.role === 'tool') {
    const words = `The tool said ${last.content}. Anything else?`.match(/.{1,8}/g) ?? []
    return sse([
      ...words.map((text) => ({ ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })),
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage },
    ])
  }
  const call = { index: 0, id: `call_${served}`, type: 'function', function: { name: 'bench__echo', arguments: JSON.stringify({ text: question }) } }
  return sse([
    { ...base, choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { ...base, choices: [], usage },
  ])
}
console.log(`listening ${server.port}`)
