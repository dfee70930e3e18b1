import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ChatRequestBody } from '../../server/llm/wire-format.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { createChatbot, createFlow, flowPath } from './flow-fixtures.ts'

/** Answers in text, takes the "human" exit with the plan captured, or never answers usefully. */
const model = fakeChatCompletions((body: ChatRequestBody) => {
  const last = String(body.messages.at(-1)?.content ?? '')
  if (last.includes('person')) return { toolCalls: [{ name: 'exit_human', arguments: JSON.stringify({ plan: 'pro' }) }], usage: { prompt_tokens: 5, completion_tokens: 2 } }
  return { text: `Seen ${body.messages.length - 1} messages; you said: ${last}`, usage: { prompt_tokens: 10, completion_tokens: 4 } }
})

const flow = {
  version: 1,
  start: 'hello',
  variables: { plan: { type: 'string' } },
  states: {
    hello: { say: [{ text: 'Hi, ask me anything.' }], on: [{ to: 'ai' }] },
    ai: { agent: { instructions: 'Help with plans.', exits: [{ when: 'the visitor wants a person', to: 'human', capture: ['plan'] }] } },
    human: { say: [{ text: 'A person will answer ({{plan}}).' }], handoff: {} },
  },
}

let app: TestApp
let botId: string
let flowId: string
const run = (body: unknown) => app.call('POST', `${flowPath(botId, flowId)}/test-run`, { body })

beforeAll(async () => {
  app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  botId = await createChatbot(app, 'Agent draft')
  flowId = await createFlow(app, botId, { name: 'Draft', type: 'conversation', flow })
})
afterAll(async () => {
  model.stop()
  await app.close()
})

describe('test-run: an agent state of the draft runs against the chatbot model, marked as a test', () => {
  test('without a model set, the run fails with the reason and the draft hands off, as live', async () => {
    const started = await run({ state: null, input: { kind: 'start' } })
    const answered = await run({ state: started.body.state, input: { kind: 'text', text: 'what plans are there?' } })
    expect(answered.status).toBe(200)
    expect(answered.body.agent).toMatchObject({ test: true, state: 'ai', model: null, outcome: 'failed', reason: expect.stringContaining('no model') })
    expect(answered.body.state).toMatchObject({ status: 'handoff' })
  })

  test('with a model: its answer, given the test chat as history; nothing stored', async () => {
    await app.call('PATCH', `/api/dev/v1/chatbots/${botId}`, { body: { llm: { base_url: model.baseUrl, model: 'fake-1', api_key: 'sk-draft' } } })
    const started = await run({ state: null, input: { kind: 'start' } })
    const history = [{ role: 'bot', text: 'Hi, ask me anything.' }]
    const answered = await run({ state: started.body.state, input: { kind: 'text', text: 'what plans are there?' }, history })
    expect(answered.status).toBe(200)
    expect(answered.body.messages).toEqual([{ kind: 'text', text: 'Seen 2 messages; you said: what plans are there?' }])
    expect(answered.body.agent).toEqual({ test: true, state: 'ai', model: 'fake-1', outcome: 'answer', tools: [], total_tokens: 14 })
    expect(answered.body.steps).toEqual([{ from: 'hello', way: 'on/0', to: 'ai' }])
    const asked = model.requests.at(-1)!.body
    expect(asked.messages[0]).toEqual({ role: 'system', content: 'Help with plans.' })
    expect(asked.messages.slice(1)).toEqual([{ role: 'assistant', content: 'Hi, ask me anything.' }, { role: 'user', content: 'what plans are there?' }])
    const counts = ['conversations', 'messages', 'agent_runs'].map((table) => app.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n)
    expect(counts).toEqual([0, 0, 0])
  })

  test("an exit resumes the draft where it leads, with the exit's captured value", async () => {
    const started = await run({ state: null, input: { kind: 'start' } })
    const inAgent = await run({ state: started.body.state, input: { kind: 'text', text: 'hello' } })
    const exited = await run({ state: inAgent.body.state, input: { kind: 'text', text: 'a person please' }, history: [{ role: 'visitor', text: 'hello' }] })
    expect(exited.body.agent).toMatchObject({ outcome: 'exit', total_tokens: 7 })
    expect(exited.body.messages).toEqual([{ kind: 'text', text: 'A person will answer (pro).' }])
    expect(exited.body.state).toMatchObject({ state: 'human', status: 'handoff', variables: { plan: 'pro' } })
    expect(exited.body.steps).toEqual([{ from: 'ai', way: 'agent/exits/0', to: 'human' }])
  })

  test('a history longer than 200 lines, or a line over 4096 characters, is refused', async () => {
    const long = Array.from({ length: 201 }, () => ({ role: 'visitor', text: 'x' }))
    expect((await run({ state: null, input: { kind: 'start' }, history: long })).status).toBe(422)
    expect((await run({ state: null, input: { kind: 'start' }, history: [{ role: 'bot', text: 'x'.repeat(4097) }] })).status).toBe(422)
  })
})
