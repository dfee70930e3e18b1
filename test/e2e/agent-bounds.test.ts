import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { billingFlow } from '../autopilot/support/agent-chat.ts'
import { fakeChatCompletions, type ScriptedReply } from '../llm/support/fake-chat-completions.ts'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { webhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { crashBed } from './support/crash-bed.ts'

/**
 * A hostile model server and a hostile MCP server (real: the official SDK) against the
 * compiled binary. Everything Parley takes from them is bounded: an answer's size (max_tokens
 * sent, the response read up to a byte limit, the text kept up to a character limit), a model
 * call's and a run's time (total deadlines, not only between chunks), tool calls per step and
 * per run and their arguments' size. What is stored, what the visitor's widget and the rest-api
 * webhook get, and what the binary holds in memory stay under the limits; /healthz keeps
 * answering; a run past its deadline frees its slot and the visitor hears on_error.
 */

const MAX_TOKENS = 64
/** What the settings above allow of one answer's text (docs/agents.md: 8 characters per token). */
const MAX_TEXT = MAX_TOKENS * 8
const SORRY = 'The assistant is unavailable; write to billing@example.com.'
const HUGE = 20 * 1024 * 1024

const sse = (chunks: unknown[], done = true) => `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}${done ? 'data: [DONE]\n\n' : ''}`
const delta = (value: Record<string, unknown>, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: value, finish_reason: finish }] })
const toolCall = (index: number, name: string, args: string) => ({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name, arguments: args } }] })

/** The hostile answers, made once before anything is measured (20 MB strings take this process a while). */
const hostile = {
  hugeStream: '',
  longStream: '',
  hugeJson: '',
  hugeArgument: '',
  make() {
    const huge = 'A'.repeat(HUGE)
    this.hugeStream = sse([delta({ content: huge }), delta({}, 'stop')])
    // 20 MB in 4 KB deltas: a provider that ignores max_tokens.
    const piece = sse([delta({ content: 'A'.repeat(4096) })], false)
    this.longStream = piece.repeat(HUGE / 4096) + sse([delta({}, 'stop')])
    this.hugeJson = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: huge }, finish_reason: 'stop' }] })
    this.hugeArgument = sse([delta(toolCall(0, 'billing__echo', JSON.stringify({ text: huge }))), delta({}, 'tool_calls')])
  },
}

/** The hostile model: what it does depends on the visitor's question, and on whether a tool round came back. */
function hostileReply(body: { messages: { role: string; content?: string | null }[] }): ScriptedReply {
  const question = body.messages.findLast((message) => message.role === 'user')?.content
  const afterTools = body.messages.at(-1)?.role === 'tool'
  switch (question) {
    case 'huge stream':
      return { raw: hostile.hugeStream, contentType: 'text/event-stream' }
    case 'long stream':
      return { raw: hostile.longStream, contentType: 'text/event-stream' }
    case 'huge json':
      return { raw: hostile.hugeJson, contentType: 'application/json' }
    case 'forever':
      return { forever: { everyMs: 100 } }
    case 'many tools':
      if (afterTools) return { text: 'The tools have answered.' }
      return { raw: sse([...Array.from({ length: 500 }, (_, k) => delta(toolCall(k, 'billing__echo', `{"text":"call ${k}"}`))), delta({}, 'tool_calls')]), contentType: 'text/event-stream' }
    case 'big argument':
      if (afterTools) return { text: 'I could not send that.' }
      return { raw: sse([delta(toolCall(0, 'billing__echo', JSON.stringify({ text: 'B'.repeat(200_000) }))), delta({}, 'tool_calls')]), contentType: 'text/event-stream' }
    case 'huge argument':
      return { raw: hostile.hugeArgument, contentType: 'text/event-stream' }
    default:
      return { text: `You said: ${question}` }
  }
}

const model = fakeChatCompletions((body) => hostileReply(body))
const receiver = webhookReceiver()
const bed = crashBed({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_AGENT_RUNS_PER_WORKSPACE: '2' })
let tools: RunningMcpServer
let bot = ''
let widgetKey = ''

/**
 * /healthz asked every 50 ms by a process of its own (this one builds and sends 20 MB answers,
 * which would count against the binary): on SIGTERM it prints how many it asked and the
 * slowest answer.
 */
const PROBE = `
let count = 0, slowest = 0
process.on('SIGTERM', () => { console.log(JSON.stringify({ count, slowest })); process.exit(0) })
for (;;) {
  const started = performance.now()
  try { await (await fetch(process.argv.at(-1) + '/healthz')).arrayBuffer() } catch {}
  slowest = Math.max(slowest, performance.now() - started); count++
  await Bun.sleep(50)
}`
let probe: ReturnType<typeof Bun.spawn> | undefined
async function probeResult(): Promise<{ count: number; slowest: number }> {
  probe?.kill('SIGTERM')
  return JSON.parse(await new Response(probe?.stdout as ReadableStream).text())
}

/** RSS and its peak, in MiB, of the binary, as /proc reads them. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0)
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 }
}

const dataBytes = () => readdirSync(bed.dataDir).reduce((sum, name) => sum + statSync(join(bed.dataDir, name)).size, 0)

async function ask(userId: string, text: string): Promise<string> {
  const sent = await bed.must('POST', `/api/dev/v1/chatbots/${bot}/integrations/rest-api/messages`, { user_id: userId, text })
  return sent.conversation_id as string
}

/** The bot's messages to a conversation, as its webhooks carried them (waits for `count` of them). */
async function botSaid(conversationId: string, count = 1, ms = 20_000): Promise<string[]> {
  const said = () =>
    receiver
      .events()
      .filter((event) => event?.type === 'message.created' && event.data.conversation_id === conversationId && event.data.message.role === 'bot')
      .map((event) => event.data.message.content.text as string)
  for (let waited = 0; said().length < count; waited += 25) {
    if (waited > ms) throw new Error(`the bot said ${said().length} of ${count} messages in ${ms} ms`)
    await Bun.sleep(25)
  }
  return said()
}

const trace = async (conversationId: string) => (await bed.must('GET', `/api/dev/v1/chatbots/${bot}/conversations/${conversationId}/trace?limit=100`)).items as { kind: string; detail: any }[]
const stored = async (conversationId: string) =>
  ((await bed.must('GET', `/api/dev/v1/chatbots/${bot}/conversations/${conversationId}/messages?limit=100`)).items as { role: string; content: { text?: string } }[]).filter(
    (message) => message.role === 'bot',
  )

beforeAll(async () => {
  hostile.make()
  tools = await streamableServer()
  await bed.start()
  bot = await bed.chatbot('Bounded', null)
  await bed.must('PATCH', `/api/dev/v1/chatbots/${bot}`, { llm: { base_url: model.baseUrl, model: 'hostile-1', max_tokens: MAX_TOKENS, call_deadline_ms: 1500, run_deadline_ms: 4000 } })
  const mcp = await bed.must('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { name: 'billing', url: tools.url })
  const flow = await bed.must('POST', `/api/dev/v1/chatbots/${bot}/flows`, { name: 'Agent', type: 'conversation', flow: billingFlow(mcp.id, { on_error: 'sorry' }) })
  await bed.must('POST', `/api/dev/v1/chatbots/${bot}/flows/${flow.id}/publish`)
  await bed.must('POST', `/api/dev/v1/chatbots/${bot}/integrations/rest-api`, { webhook_url: receiver.url, name: 'Back office' })
  widgetKey = (await bed.must('POST', `/api/dev/v1/chatbots/${bot}/integrations/web`, { name: 'Site' })).config.widget_key
  probe = Bun.spawn([process.execPath, '-e', PROBE, bed.url], { stdout: 'pipe', stderr: 'inherit' })
}, 60_000)

afterAll(async () => {
  probe?.kill('SIGKILL')
  await bed.close()
  await tools.stop()
  receiver.stop()
  model.stop()
})

describe('a hostile model and MCP server against the compiled binary', () => {
  test('a provider that ignores max_tokens and streams 20 MB is read up to the byte limit; at most MAX_TEXT characters are stored and sent (widget, webhook), and the trace says it was cut', async () => {
    const before = memoryOf(bed.pid)
    const frames: number[] = []
    const socket = new WebSocket(`${bed.url.replace('http', 'ws')}/widget/v1/socket?key=${widgetKey}`)
    const welcomed = new Promise<void>((resolve) => {
      socket.onmessage = (event) => {
        frames.push(String(event.data).length)
        if (JSON.parse(String(event.data)).type === 'welcome') resolve()
      }
    })
    await new Promise((resolve) => (socket.onopen = resolve))
    socket.send(JSON.stringify({ type: 'hello', v: 1 }))
    await Promise.race([welcomed, Bun.sleep(10_000).then(() => Promise.reject(new Error('no welcome')))])
    socket.send(JSON.stringify({ type: 'start' }))
    const answered = new Promise<void>((resolve) => {
      const previous = socket.onmessage
      socket.onmessage = (event) => {
        previous?.call(socket, event)
        const frame = JSON.parse(String(event.data))
        if (frame.type === 'message' && frame.message.role === 'bot') resolve()
      }
    })
    socket.send(JSON.stringify({ type: 'message', client_id: 'c-1', text: 'long stream' }))
    await Promise.race([answered, Bun.sleep(20_000).then(() => Promise.reject(new Error(`no answer on the widget socket; frames: ${frames.join(', ')}`)))])
    socket.close()

    const conversation = await ask('stream-user', 'long stream')
    const [said] = await botSaid(conversation)
    expect(said).toBe('A'.repeat(MAX_TEXT))
    expect((await stored(conversation))[0]?.content.text).toHaveLength(MAX_TEXT)
    const model1 = (await trace(conversation)).find((entry) => entry.kind === 'model')
    expect(model1?.detail.cut).toContain('bytes')
    expect(model1?.detail.cut).toContain(`${MAX_TEXT} characters`)
    expect(model1?.detail.content).toHaveLength(MAX_TEXT)
    expect(Math.max(...frames)).toBeLessThan(16 * 1024)
    expect(model.requests.at(-1)?.body).toMatchObject({ max_tokens: MAX_TOKENS, stream: true })
    const after = memoryOf(bed.pid)
    console.log(`long stream: widget frames at most ${Math.max(...frames)} bytes; RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MiB (peak ${after.peak.toFixed(0)} MiB)`)
  }, 60_000)

  test('one 20 MB delta is not read past the byte limit: nothing of it is kept, the trace says why, the visitor hears on_error', async () => {
    const conversation = await ask('delta-user', 'huge stream')
    expect(await botSaid(conversation)).toEqual([SORRY])
    const entries = await trace(conversation)
    expect(entries.find((entry) => entry.kind === 'model')?.detail.cut).toContain('bytes')
    expect(entries.find((entry) => entry.kind === 'run')?.detail.reason).toContain('cut')
    expect(JSON.stringify(entries).length).toBeLessThan(20_000)
  }, 60_000)

  test('a plain JSON answer of 20 MB is not read past the byte limit: the run fails, the visitor hears on_error', async () => {
    const conversation = await ask('json-user', 'huge json')
    expect(await botSaid(conversation)).toEqual([SORRY])
    const entries = await trace(conversation)
    expect(entries.find((entry) => entry.kind === 'model')?.detail.error).toContain('bytes')
    expect(JSON.stringify(entries).length).toBeLessThan(20_000)
  }, 60_000)

  test('models that stream forever hold their runs only until the deadlines: the slots are freed, the visitors hear on_error, the next visitor is answered', async () => {
    const started = performance.now()
    const stuck = [await ask('forever-1', 'forever'), await ask('forever-2', 'forever')]
    const next = await ask('patient-user', 'hello')
    expect(await botSaid(next, 1, 30_000)).toEqual(['You said: hello'])
    const waited = performance.now() - started
    for (const conversation of stuck) {
      expect(await botSaid(conversation)).toEqual([SORRY])
      const entries = await trace(conversation)
      const run = entries.find((entry) => entry.kind === 'run')
      expect(run?.detail).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('deadline') })
      const errors = entries.filter((entry) => entry.kind === 'model').map((entry) => String(entry.detail.error))
      expect(errors.length).toBeGreaterThan(0)
      expect(errors.every((error) => error.includes('deadline'))).toBe(true)
    }
    console.log(`forever: two runs held both slots of the workspace until their 4 s deadline; the third visitor was answered ${Math.round(waited)} ms after the first question`)
  }, 60_000)

  test('500 tool calls in one answer: 10 are run, the others are answered to the model as errors, not run', async () => {
    const calledBefore = tools.counters.toolCalls
    const conversation = await ask('tools-user', 'many tools')
    expect(await botSaid(conversation)).toEqual(['The tools have answered.'])
    expect(tools.counters.toolCalls - calledBefore).toBe(10)
    const entries = await trace(conversation)
    const toolEntries = entries.filter((entry) => entry.kind === 'tool')
    expect(toolEntries.filter((entry) => !entry.detail.is_error)).toHaveLength(10)
    expect(toolEntries.length).toBeLessThanOrEqual(64)
    expect(toolEntries.find((entry) => entry.detail.is_error)?.detail.result).toContain('not run')
    // What the model was told: every call it made that was kept got an answer.
    const told = model.requests.at(-1)?.body.messages.filter((message) => message.role === 'tool') ?? []
    expect(told.length).toBe(toolEntries.length)
  }, 60_000)

  test('a 200 KB argument is not forwarded, and only its start is stored; a 20 MB one cuts the answer and nothing is run', async () => {
    const calledBefore = tools.counters.toolCalls
    const big = await ask('args-user', 'big argument')
    expect(await botSaid(big)).toEqual(['I could not send that.'])
    const toolEntry = (await trace(big)).find((entry) => entry.kind === 'tool')
    expect(toolEntry?.detail).toMatchObject({ is_error: true, result: expect.stringContaining('not run') })
    expect(String(toolEntry?.detail.arguments).length).toBeLessThan(2_000)
    const sentBack = JSON.stringify(model.requests.at(-1)?.body.messages)
    expect(sentBack.length).toBeLessThan(20_000)

    const hugeArgs = await ask('huge-args-user', 'huge argument')
    expect(await botSaid(hugeArgs)).toEqual([SORRY])
    expect(tools.counters.toolCalls).toBe(calledBefore)
  }, 60_000)

  test('meanwhile /healthz kept answering, memory and the database stayed small, no webhook was large', async () => {
    const memory = memoryOf(bed.pid)
    const webhookLargest = Math.max(...receiver.received.map((got) => got.body.length))
    const probed = await probeResult()
    const worstProbe = probed.slowest
    console.log(
      `bounds: ${probed.count} /healthz probes, slowest ${Math.round(worstProbe)} ms; binary RSS ${memory.rss.toFixed(0)} MiB, peak ${memory.peak.toFixed(0)} MiB; ` +
        `data folder ${(dataBytes() / 1024 / 1024).toFixed(1)} MiB; largest webhook ${webhookLargest} bytes; model requests ${model.requests.length}`,
    )
    expect(webhookLargest).toBeLessThan(16 * 1024)
    // Generous bounds: before, one such run took the RSS to 852 MiB and the database up by 572 MB.
    expect(memory.peak).toBeLessThan(400)
    expect(dataBytes()).toBeLessThan(50 * 1024 * 1024)
    // Not a timing assertion on a shared machine: /healthz answered at all, throughout, within seconds.
    expect(worstProbe).toBeLessThan(2_500)
  })
})
