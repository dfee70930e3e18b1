import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { runAutopilot, type AutopilotRunRequest, type AutopilotPorts } from '../../server/autopilot/run-autopilot.ts'
import { callModel } from '../../server/llm/call-model.ts'
import { fakeChatCompletions, type ScriptedReply } from '../llm/support/fake-chat-completions.ts'
import { type McpApp, mcpApp } from '../mcp/support/mcp-app.ts'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'

let app: McpApp
let tools: RunningMcpServer
let billing: string
let model: ReturnType<typeof fakeChatCompletions> | undefined
const waits: number[] = []

beforeAll(async () => {
  tools = await streamableServer()
  app = mcpApp()
  // The integration's own deny list keeps one tool from every caller, the model included.
  billing = await app.integration({ name: 'billing', url: tools.url, tools: { allow: null, deny: ['delete_everything'] } })
})
afterAll(async () => {
  await app.close()
  await tools.stop()
})
afterEach(() => {
  model?.stop()
  waits.length = 0
})

/** The ports as the server will wire them: the real LLM client, Parley's own MCP routes. */
function ports(): AutopilotPorts {
  return {
    callModel: (body, onText) => callModel({ baseUrl: model!.baseUrl, apiKey: 'sk-test' }, body, { fetch, timeoutMs: 5_000, onText }),
    async listTools(integrationId) {
      const listed = await app.tools(integrationId)
      if (listed.status !== 200) throw new Error(listed.body.detail)
      return listed.body.tools.filter((tool: { allowed: boolean }) => tool.allowed)
    },
    async callTool(integrationId, tool, args) {
      const called = await app.callTool(integrationId, tool, args)
      if (called.status !== 200) throw new Error(called.body.detail)
      return { text: called.body.content.map((block: { text?: string }) => block.text ?? '').join('\n'), isError: called.body.is_error }
    },
    sleep: async (ms) => void waits.push(ms),
  }
}

const request = (extra: Partial<AutopilotRunRequest> = {}): AutopilotRunRequest => ({
  model: 'fake-1',
  temperature: 0.2,
  instructions: 'Answer billing questions for Ada.',
  history: [{ role: 'user', content: 'Where is invoice INV-7?' }],
  tools: [{ integrationId: billing, integrationName: 'billing', allow: ['echo', 'add', 'fail', 'delete_everything'] }],
  exits: [
    { when: 'the visitor wants a person', to: 'human', capture: [] },
    { when: 'the invoice was found', to: 'found', capture: [{ name: 'invoice', type: 'string' }, { name: 'amount', type: 'number' }] },
  ],
  maxSteps: 4,
  ...extra,
})

const run = (replies: ScriptedReply[], extra: Partial<AutopilotRunRequest> = {}, onText?: (text: string) => void) => {
  model = fakeChatCompletions(replies)
  return runAutopilot(request(extra), ports(), onText)
}

describe('an agent run: the model, its MCP tools and its exits', () => {
  test('a text answer ends the run; the model saw the instructions, the history, the namespaced tools and the exits', async () => {
    const outcome = await run([{ text: 'It was sent on Monday.' }])
    expect(outcome).toMatchObject({ kind: 'answer', text: 'It was sent on Monday.' })
    const sent = model!.requests[0]!.body
    expect(sent.messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'Answer billing questions for Ada.' },
      { role: 'user', content: 'Where is invoice INV-7?' },
    ])
    expect(sent.temperature).toBe(0.2)
    // The state's allow list narrows the integration's; the integration's deny list wins over both.
    expect(sent.tools?.map((tool) => tool.function.name)).toEqual(['exit_human', 'exit_found', 'billing__echo', 'billing__add', 'billing__fail'])
    expect(sent.tools?.[1]?.function.parameters).toEqual({
      type: 'object',
      properties: { invoice: { type: 'string' }, amount: { type: 'number' } },
      required: ['invoice', 'amount'],
      additionalProperties: false,
    })
  })

  test("the visitor's language reaches the model as a system line of its own, after the instructions", async () => {
    await run([{ text: 'A fatura foi enviada na segunda.' }], { visitorLocale: 'pt-BR' })
    expect(model!.requests[0]!.body.messages.slice(0, 3)).toEqual([
      { role: 'system', content: 'Answer billing questions for Ada.' },
      { role: 'system', content: "The visitor's language is Brazilian Portuguese (pt-BR). Answer in that language unless the visitor writes in another one." },
      { role: 'user', content: 'Where is invoice INV-7?' },
    ])
    // A tag Intl cannot name is told as it is; none, no line.
    await run([{ text: 'ok' }], { visitorLocale: 'qaa' })
    expect(model!.requests[0]!.body.messages[1]).toEqual({ role: 'system', content: "The visitor's language is qaa. Answer in that language unless the visitor writes in another one." })
  })

  test('a tool call goes to the real MCP server, its result back to the model as data, then the model answers', async () => {
    const before = tools.counters.toolCalls
    const outcome = await run([{ toolCalls: [{ id: 'c1', name: 'billing__add', arguments: '{"a":2,"b":40}' }] }, { text: 'The total is 42.' }])
    expect(outcome).toMatchObject({ kind: 'answer', text: 'The total is 42.' })
    expect(tools.counters.toolCalls).toBe(before + 1)
    expect(model!.requests[1]!.body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'billing__add', arguments: '{"a":2,"b":40}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '42' },
    ])
    expect(outcome.trace.find((entry) => entry.kind === 'tool')).toMatchObject({ name: 'billing__add', result: '42', is_error: false })
  })

  test('parallel tool calls are each answered, in order; a tool error reaches the model, not the visitor', async () => {
    const outcome = await run([
      { toolCalls: [{ id: 'a', name: 'billing__echo', arguments: '{"text":"one"}' }, { id: 'b', name: 'billing__fail', arguments: '{}' }] },
      { text: 'The order system is down, sorry.' },
    ])
    expect(outcome.kind).toBe('answer')
    expect(model!.requests[1]!.body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'one' },
      { role: 'tool', tool_call_id: 'b', content: 'Error: the order system is down' },
    ])
  })

  test('a tool the state does not offer is refused whatever the model asks, and the server never sees the call', async () => {
    const before = tools.counters.toolCalls
    const outcome = await run([
      {
        toolCalls: [
          { id: 'x', name: 'billing__delete_everything', arguments: '{}' },
          { id: 'y', name: 'billing__slow', arguments: '{"ms":1}' },
          { id: 'z', name: 'billing__echo', arguments: '{"text": broken' },
        ],
      },
      { text: 'I cannot do that.' },
    ])
    expect(outcome.kind).toBe('answer')
    expect(tools.counters.toolCalls).toBe(before)
    expect(model!.requests[1]!.body.messages.slice(-3).map((message) => (message as { content: string }).content)).toEqual([
      'Error: there is no tool named billing__delete_everything; use only the tools offered',
      'Error: there is no tool named billing__slow; use only the tools offered',
      'Error: the arguments are not valid JSON; send a JSON object',
    ])
  })

  test('an exit ends the run with the captured values that have the declared types', async () => {
    const outcome = await run([{ toolCalls: [{ id: 'e', name: 'exit_found', arguments: '{"invoice":"INV-7","amount":"lots"}' }] }])
    expect(outcome).toMatchObject({ kind: 'exit', exit: 1, values: { invoice: 'INV-7' } })
  })

  test('429 with Retry-After and a 500 are retried after the time asked; three failures end the run', async () => {
    const recovered = await run([{ status: 429, headers: { 'retry-after': '3' } }, { status: 500 }, { text: 'Back.' }])
    expect(recovered).toMatchObject({ kind: 'answer', text: 'Back.' })
    expect(waits).toEqual([3000, 2000])
    waits.length = 0
    model?.stop()
    const failed = await run([{ status: 503 }, { status: 503 }, { status: 503 }])
    expect(failed).toMatchObject({ kind: 'failed', reason: 'HTTP 503: scripted 503' })
  })

  test('a refusal (a wrong key) ends the run at once', async () => {
    const outcome = await run([{ status: 401, body: { error: { message: 'Incorrect API key' } } }])
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'HTTP 401: Incorrect API key' })
    expect(model!.requests).toHaveLength(1)
  })

  test('a model that keeps calling tools stops at max_steps', async () => {
    const loop = { toolCalls: [{ name: 'billing__echo', arguments: '{"text":"again"}' }] }
    const outcome = await run([loop, loop], { maxSteps: 2 })
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'no answer within max_steps (2) rounds' })
  })

  test('streamed, the answer reaches the caller fragment by fragment', async () => {
    const fragments: string[] = []
    const outcome = await run([{ text: 'Sent on Monday.', fragment: 5 }], { stream: true }, (text) => fragments.push(text))
    expect(outcome).toMatchObject({ kind: 'answer', text: 'Sent on Monday.' })
    expect(fragments.join('')).toBe('Sent on Monday.')
    expect(fragments.length).toBeGreaterThan(1)
  })

  test('tool output over the limit is cut with a marker', async () => {
    const outcome = await run([{ toolCalls: [{ id: 't', name: 'billing__echo', arguments: JSON.stringify({ text: 'x'.repeat(500) }) }] }, { text: 'ok' }], { toolOutputLimit: 100 })
    expect(outcome.kind).toBe('answer')
    expect((model!.requests[1]!.body.messages.at(-1) as { content: string }).content).toBe(`${'x'.repeat(100)}\n[output cut at 100 characters]`)
  })

  test('max_tokens is sent with every call; the state sets it', async () => {
    await run([{ toolCalls: [{ name: 'billing__echo', arguments: '{"text":"x"}' }] }, { text: 'ok' }], { maxTokens: 300 })
    expect(model!.requests.map((sent) => sent.body.max_tokens)).toEqual([300, 300])
  })

  test('tool calls over the limits are answered to the model as errors and not made: 10 of one answer, 40 in a run', async () => {
    const calledBefore = tools.counters.toolCalls
    const many = (n: number) => ({ toolCalls: Array.from({ length: n }, (_, k) => ({ id: `c${k}`, name: 'billing__echo', arguments: `{"text":"call ${k}"}` })) })
    const outcome = await run([many(12), many(12), many(12), many(12), many(12), { text: 'done' }], { maxSteps: 6 })
    expect(outcome.kind).toBe('answer')
    expect(tools.counters.toolCalls - calledBefore).toBe(40)
    const told = (step: number) => model!.requests[step]!.body.messages.filter((message) => message.role === 'tool').slice(-12) as { content: string }[]
    // Each answer: 10 made, the 11th and 12th refused; every call id answered.
    expect(told(1).slice(10).map((message) => message.content)).toEqual(Array(2).fill('Error: not run: at most 10 tool calls of one answer are run; ask for fewer at once'))
    expect(told(5).slice(0, 10).map((message) => message.content)).toEqual(Array(10).fill('Error: not run: this run has made its 40 tool calls; answer with what you have'))
    expect(outcome.trace.filter((entry) => entry.kind === 'tool')).toHaveLength(60)
  })

  test('arguments over 32,768 characters are not sent to the tool, nor back to the model; the trace keeps their start', async () => {
    const calledBefore = tools.counters.toolCalls
    const big = JSON.stringify({ text: 'y'.repeat(40_000) })
    const outcome = await run([{ toolCalls: [{ id: 'big', name: 'billing__echo', arguments: big }] }, { text: 'ok' }])
    expect(outcome.kind).toBe('answer')
    expect(tools.counters.toolCalls).toBe(calledBefore)
    const entry = outcome.trace.find((each) => each.kind === 'tool') as { arguments: string; result: string; is_error: boolean }
    expect(entry).toMatchObject({ is_error: true, result: 'not run: its arguments are over 32768 characters' })
    expect(entry.arguments).toEndWith('… [cut: over 32768 characters]')
    expect(entry.arguments.length).toBeLessThan(1100)
    const echoed = model!.requests[1]!.body.messages.find((message) => message.role === 'assistant') as { tool_calls: { function: { arguments: string } }[] }
    expect(echoed.tool_calls[0]?.function.arguments).toBe('{}')
  })

  test('a stopped run (its deadline) ends at once with the reason it was stopped with', async () => {
    const stop = new AbortController()
    const loop = { toolCalls: [{ name: 'billing__echo', arguments: '{"text":"again"}' }] }
    model = fakeChatCompletions([loop, loop, loop])
    const { callTool } = ports()
    const outcome = await runAutopilot(request({ signal: stop.signal }), {
      ...ports(),
      async callTool(integrationId, tool, args) {
        stop.abort(new Error('the run passed its deadline of 50 ms'))
        return callTool(integrationId, tool, args)
      },
    })
    // Classified for the team as a timeout (the desk's timeline shows it).
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'the run passed its deadline of 50 ms', failure: { kind: 'timeout', message: 'the run passed its deadline of 50 ms', http_status: null } })
    expect(model.requests).toHaveLength(1)
  })
})
