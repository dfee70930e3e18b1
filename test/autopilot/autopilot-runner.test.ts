import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { AGENT_APOLOGY } from '../../server/engine/agent-state.ts'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { type AgentChat, agentChat, billingFlow, runsSettled, transcript } from './support/agent-chat.ts'

let tools: RunningMcpServer
let chat: AgentChat | undefined

beforeAll(async () => {
  tools = await streamableServer()
})
afterAll(async () => {
  await tools.stop()
})
afterEach(async () => {
  await chat?.close()
  chat = undefined
})

const trace = async (conversationId: string) =>
  (await chat!.app.call('GET', `/api/dev/v1/chatbots/${chat!.chatbotId}/conversations/${conversationId}/trace`)).body
const runs = (conversationId: string) =>
  chat!.app.db.query<{ status: string; outcome: string; total_tokens: number }, [string]>('SELECT status, outcome, total_tokens FROM agent_runs WHERE conversation_id = ? ORDER BY id').all(conversationId)
const exitCall = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] })

describe('a visitor in an agent state', () => {
  test('gets the model text answer stored as the bot message, once, under the id its draft streamed with', async () => {
    chat = await agentChat({ script: [{ text: 'Your invoice INV-7 is paid.', usage: { prompt_tokens: 50, completion_tokens: 8 } }], flow: () => billingFlow(null) })
    const conversation = chat.open('Is INV-7 paid?', { name: 'Ada' })
    await chat.settled()
    const stored = chat.messages(conversation.id)
    expect(transcript(stored)).toEqual(['visitor: Is INV-7 paid?', 'bot: Your invoice INV-7 is paid.'])
    const sent = chat.model.requests[0]!.body
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Answer billing questions for Ada.' },
      { role: 'user', content: 'Is INV-7 paid?' },
    ])
    expect(sent.model).toBe('fake-1')
    expect(sent.stream).toBe(true)
    expect(chat.model.requests[0]!.headers.get('authorization')).toBe('Bearer sk-test-key')
    // The draft: started, the text in fragments, and the stored message under the same id.
    const answerId = stored[1]!.id
    expect(chat.drafts.map((draft): [boolean, string] => [draft.message_id === answerId, draft.phase])).toEqual([
      [true, 'started'],
      ...Array.from({ length: 7 }, (): [boolean, string] => [true, 'delta']),
    ])
    expect(chat.drafts.map((draft) => draft.text ?? '').join('')).toBe('Your invoice INV-7 is paid.')
    expect(chat.typing.map((event) => event.active)).toEqual([true, false])
    expect(runs(conversation.id)).toEqual([{ status: 'done', outcome: 'answer', total_tokens: 58 }])
  })

  test("max_tokens is the chatbot's, or the state's where it sets one", async () => {
    chat = await agentChat({ script: [{ text: 'One.' }, { text: 'Two.' }], flow: () => billingFlow(null), llm: { max_tokens: 300 } })
    chat.open('First?')
    await chat.settled()
    expect(chat.model.requests[0]!.body.max_tokens).toBe(300)
    await chat.close()
    chat = await agentChat({ script: [{ text: 'Three.' }], flow: () => billingFlow(null, { max_tokens: 40 }), llm: { max_tokens: 300 } })
    chat.open('Second?')
    await chat.settled()
    expect(chat.model.requests[0]!.body.max_tokens).toBe(40)
  })

  test('a run past its deadline fails at once, frees its slot and goes to on_error', async () => {
    chat = await agentChat({
      script: (body) => (body.messages.at(-1).content === 'stuck?' ? { forever: { everyMs: 20 } } : { text: 'Answered.' }),
      flow: () => billingFlow(null, { on_error: 'sorry' }),
      llm: { run_deadline_ms: 1000 },
      tuning: { runsPerWorkspace: 1 },
    })
    const stuck = chat.open('stuck?')
    const next = chat.open('next?')
    await chat.settled()
    expect(transcript(chat.messages(stuck.id))).toEqual(['visitor: stuck?', 'bot: The assistant is unavailable; write to billing@example.com.'])
    expect(transcript(chat.messages(next.id))).toEqual(['visitor: next?', 'bot: Answered.'])
    const run = (await trace(stuck.id)).items.find((entry: { kind: string }) => entry.kind === 'run')
    expect(run.detail).toMatchObject({ outcome: 'failed', reason: 'the run passed its deadline of 1000 ms', failure: { kind: 'timeout' } })
  })

  test('an exit with captures moves the flow on and stores the values the flow declared', async () => {
    chat = await agentChat({ script: [exitCall('exit_found', { invoice: 'INV-7', amount: 42, extra: 'ignored' })], flow: () => billingFlow(null) })
    const conversation = chat.open('Is INV-7 paid?')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Is INV-7 paid?', 'bot: Invoice INV-7: 42 EUR.'])
    expect(chat.app.services.conversations.get(conversation.id)?.status).toBe('closed')
    const offered = chat.model.requests[0]!.body.tools!.map((tool) => tool.function)
    expect(offered.find((fn) => fn.name === 'exit_found')?.parameters).toEqual({
      type: 'object',
      properties: { invoice: { type: 'string' }, amount: { type: 'number' } },
      required: ['invoice', 'amount'],
      additionalProperties: false,
    })
    const { items } = await trace(conversation.id)
    expect(items.map((entry: { kind: string; internal: boolean }) => [entry.kind, entry.internal])).toEqual([['model', true], ['exit', true], ['run', true]])
    expect(items[1].detail).toEqual({ exit: 1, to: 'found', values: { invoice: 'INV-7', amount: 42 } })
  })

  test('an exit to a handoff hands the conversation to a person', async () => {
    chat = await agentChat({ script: [exitCall('exit_human')], flow: () => billingFlow(null) })
    const conversation = chat.open('I want a human')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: I want a human', 'bot: A person will take over.'])
    expect(chat.app.services.conversations.get(conversation.id)?.status).toBe('handoff')
  })

  test('a tool is called through MCP and its result goes back to the model, with a trace entry', async () => {
    chat = await agentChat({
      script: [{ text: 'Let me check.', toolCalls: [{ name: 'billing__echo', arguments: '{"text":"INV-7: paid"}' }] }, { text: 'INV-7 is paid.' }],
      flow: billingFlow,
      toolsUrl: tools.url,
    })
    const conversation = chat.open('Is INV-7 paid?')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Is INV-7 paid?', 'bot: INV-7 is paid.'])
    const second = chat.model.requests[1]!.body.messages
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: 'INV-7: paid' })
    const { items } = await trace(conversation.id)
    const tool = items.find((entry: { kind: string }) => entry.kind === 'tool')
    expect(tool.detail).toMatchObject({ name: 'billing__echo', arguments: '{"text":"INV-7: paid"}', result: 'INV-7: paid', is_error: false })
    expect(typeof tool.detail.latency_ms).toBe('number')
    // The preamble streamed before the tool call was a draft the visitor saw go away.
    const phases = chat.drafts.map((draft) => draft.phase)
    expect(phases.filter((phase) => phase === 'started')).toHaveLength(2)
    expect(phases.filter((phase) => phase === 'dropped')).toHaveLength(1)
  })

  test("a tool's error is the model's to read, never the visitor's", async () => {
    chat = await agentChat({
      script: [{ toolCalls: [{ name: 'billing__fail', arguments: '{}' }] }, { text: 'The order system is down; try later.' }],
      flow: billingFlow,
      toolsUrl: tools.url,
    })
    const conversation = chat.open('Where is my order?')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Where is my order?', 'bot: The order system is down; try later.'])
    expect(chat.model.requests[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Error: the order system is down' })
  })

  test('tools outside the state allow-list or the integration deny-list are never offered nor called, whatever the model asks', async () => {
    chat = await agentChat({
      script: [
        {
          toolCalls: [
            { name: 'billing__delete_everything', arguments: '{}' },
            { name: 'billing__big', arguments: '{"chars":10}' },
            { name: 'delete_everything', arguments: '{}' },
            { name: 'billing__echo', arguments: '{not json' },
          ],
        },
        { text: 'I cannot do that.' },
      ],
      flow: billingFlow,
      toolsUrl: tools.url,
    })
    const calledBefore = tools.counters.toolCalls
    const conversation = chat.open('Delete everything')
    await chat.settled()
    expect(tools.counters.toolCalls).toBe(calledBefore)
    const offered = chat.model.requests[0]!.body.tools!.map((tool) => tool.function.name).sort()
    expect(offered).toEqual(['billing__add', 'billing__echo', 'billing__fail', 'billing__slow', 'exit_found', 'exit_human'])
    const answers = chat.model.requests[1]!.body.messages.filter((message) => message.role === 'tool').map((message) => message.content)
    expect(answers).toEqual([
      'Error: there is no tool named billing__delete_everything; use only the tools offered',
      'Error: there is no tool named billing__big; use only the tools offered',
      'Error: there is no tool named delete_everything; use only the tools offered',
      'Error: the arguments are not valid JSON; send a JSON object',
    ])
    expect(transcript(chat.messages(conversation.id)).at(-1)).toBe('bot: I cannot do that.')
  })
})

describe('limits and failures', () => {
  test('429 and 500 are retried, honouring Retry-After, then the answer is stored', async () => {
    chat = await agentChat({
      script: [{ status: 429, headers: { 'retry-after': '3' } }, { status: 503 }, { text: 'Here you go.' }],
      flow: () => billingFlow(null, { on_error: 'sorry' }),
    })
    const conversation = chat.open('Hello')
    await chat.settled()
    expect(chat.waits).toEqual([3000, 2000])
    expect(transcript(chat.messages(conversation.id)).at(-1)).toBe('bot: Here you go.')
  })

  test('a model that keeps failing sends the flow to on_error', async () => {
    chat = await agentChat({ script: [{ status: 500 }, { status: 502 }, { status: 500 }], flow: () => billingFlow(null, { on_error: 'sorry' }) })
    const conversation = chat.open('Hello')
    await chat.settled()
    expect(chat.model.requests).toHaveLength(3)
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello', 'bot: The assistant is unavailable; write to billing@example.com.'])
    expect(runs(conversation.id)[0]).toMatchObject({ status: 'done', outcome: 'failed' })
    // The draft-less failure still clears the typing indicator.
    expect(chat.typing.at(-1)?.active).toBe(false)
  })

  test('without on_error the bot apologises and hands off', async () => {
    chat = await agentChat({ script: [{ status: 401, body: { error: { message: 'bad key' } } }], flow: () => billingFlow(null) })
    const conversation = chat.open('Hello')
    await chat.settled()
    expect(chat.model.requests).toHaveLength(1)
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello', `bot: ${AGENT_APOLOGY}`])
    expect(chat.app.services.conversations.get(conversation.id)?.status).toBe('handoff')
    const { items } = await trace(conversation.id)
    expect(items[0].detail.error).toContain('HTTP 401: bad key')
  })

  test('a model that never answers times out and counts as a failure', async () => {
    chat = await agentChat({ script: [{ hang: true }, { hang: true }, { hang: true }], flow: () => billingFlow(null, { on_error: 'sorry' }), tuning: { modelTimeoutMs: 100 } })
    const conversation = chat.open('Hello')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id)).at(-1)).toBe('bot: The assistant is unavailable; write to billing@example.com.')
    expect((await trace(conversation.id)).items[0].detail.error).toBe('no answer within 100 ms')
  })

  test('max_steps rounds of tool calls without an answer end in on_error', async () => {
    chat = await agentChat({
      script: () => ({ toolCalls: [{ name: 'billing__echo', arguments: '{"text":"again"}' }] }),
      flow: (id) => billingFlow(id, { max_steps: 3, on_error: 'sorry' }),
      toolsUrl: tools.url,
    })
    const conversation = chat.open('Loop')
    await chat.settled()
    expect(chat.model.requests).toHaveLength(3)
    expect(transcript(chat.messages(conversation.id)).at(-1)).toBe('bot: The assistant is unavailable; write to billing@example.com.')
    expect((await trace(conversation.id)).items.at(-1).detail).toMatchObject({ outcome: 'failed', reason: 'no answer within max_steps (3) rounds' })
  })

  test('max_turns visitor messages later the flow goes to on_limit without calling the model', async () => {
    chat = await agentChat({ script: [{ text: 'One.' }], flow: () => billingFlow(null, { max_turns: 1, on_limit: 'sorry' }) })
    const conversation = chat.open('First')
    await chat.settled()
    chat.say(conversation, 'Second')
    await chat.settled()
    expect(chat.model.requests).toHaveLength(1)
    expect(transcript(chat.messages(conversation.id))).toEqual([
      'visitor: First',
      'bot: One.',
      'visitor: Second',
      'bot: The assistant is unavailable; write to billing@example.com.',
    ])
  })

  test('history gives the model only the last messages, the question always included', async () => {
    chat = await agentChat({ script: () => ({ text: 'Noted.' }), flow: () => billingFlow(null, { history: 2 }) })
    const conversation = chat.open('one')
    await chat.settled()
    chat.say(conversation, 'two')
    await chat.settled()
    chat.say(conversation, 'three')
    await chat.settled()
    expect(chat.model.requests[2]!.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'three' },
    ])
  })

  test('a chatbot without a model fails the run at once (on_error)', async () => {
    chat = await agentChat({ script: [], flow: () => billingFlow(null, { on_error: 'sorry' }), llm: null })
    const conversation = chat.open('Hello')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id)).at(-1)).toBe('bot: The assistant is unavailable; write to billing@example.com.')
  })

  test('the state overrides the model and the temperature', async () => {
    chat = await agentChat({ script: [{ text: 'ok' }], flow: () => billingFlow(null, { model: 'big-model', temperature: 0.1 }), llm: { temperature: 0.9 } })
    chat.open('Hello')
    await chat.settled()
    expect(chat.model.requests[0]!.body).toMatchObject({ model: 'big-model', temperature: 0.1 })
  })
})

describe('order and people', () => {
  test('messages sent during a run are answered together by the next run, in order', async () => {
    chat = await agentChat({ script: [{ text: 'First answer.', delayMs: 300 }, { text: 'Both answered.' }], flow: () => billingFlow(null) })
    const conversation = chat.open('one')
    while (chat.model.requests.length === 0) await Bun.sleep(5)
    chat.say(conversation, 'two')
    chat.say(conversation, 'three')
    await chat.settled()
    expect(chat.model.requests).toHaveLength(2)
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: one', 'visitor: two', 'visitor: three', 'bot: First answer.', 'bot: Both answered.'])
    expect(chat.model.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'two' },
      { role: 'user', content: 'three' },
    ])
    expect(runs(conversation.id).map((run) => run.status)).toEqual(['done', 'merged', 'done'])
  })

  test('a message stored while the answer streams: the answer is stored after it, under a new id, and its draft dropped', async () => {
    chat = await agentChat({ script: [{ text: 'A slowly written first answer.', fragment: 1 }, { text: 'Second.' }], flow: () => billingFlow(null) })
    const conversation = chat.open('one')
    while (!chat.drafts.some((draft) => draft.phase === 'delta')) await Bun.sleep(1)
    chat.say(conversation, 'two')
    await chat.settled()
    const stored = chat.messages(conversation.id)
    expect(transcript(stored)).toEqual(['visitor: one', 'visitor: two', 'bot: A slowly written first answer.', 'bot: Second.'])
    // Ids keep the order messages are stored in (the conversation's cursors rely on it).
    expect(stored.map((message) => message.id)).toEqual(stored.map((message) => message.id).toSorted())
    const drafts = [...new Set(chat.drafts.map((draft) => draft.message_id))]
    expect(drafts).toHaveLength(2)
    expect(chat.drafts.filter((draft) => draft.phase === 'dropped').map((draft) => draft.message_id)).toEqual([drafts[0]!])
    expect(stored[2]!.id).not.toBe(drafts[0])
    expect(stored[3]!.id).toBe(drafts[1]!)
  })

  test('a person taking over during a run wins: the late answer is dropped, not stored', async () => {
    chat = await agentChat({ script: [{ text: 'Too late.', delayMs: 300 }], flow: () => billingFlow(null) })
    const conversation = chat.open('Hello')
    while (chat.model.requests.length === 0) await Bun.sleep(5)
    chat.app.services.conversations.agentSays(chat.app.services.conversations.get(conversation.id)!, 'Hi, Grace here.')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello', 'agent: Hi, Grace here.'])
    expect(runs(conversation.id)[0]).toMatchObject({ status: 'dropped', outcome: 'a person took over' })
    expect(chat.typing.at(-1)?.active).toBe(false)
  })

  test('a person taking over while the answer streams (on the last try) drops the draft the visitor saw', async () => {
    chat = await agentChat({ script: [{ status: 500 }, { status: 500 }, { text: 'x'.repeat(400), fragment: 1 }], flow: () => billingFlow(null) })
    const conversation = chat.open('Hello')
    while (!chat.drafts.some((draft) => draft.phase === 'delta')) await Bun.sleep(2)
    chat.app.services.conversations.agentSays(chat.app.services.conversations.get(conversation.id)!, 'Grace here.')
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello', 'agent: Grace here.'])
    const started = chat.drafts.find((draft) => draft.phase === 'started')!
    expect(chat.drafts.filter((draft) => draft.phase === 'dropped').map((draft) => draft.message_id)).toEqual([started.message_id])
    expect(chat.drafts.at(-1)?.phase).toBe('dropped')
  })

  test('a person who takes over and hands back during the run still wins: that run answer is dropped', async () => {
    chat = await agentChat({ script: [{ text: 'Too late.', delayMs: 300 }], flow: () => billingFlow(null) })
    const conversation = chat.open('Hello')
    while (chat.model.requests.length === 0) await Bun.sleep(5)
    const path = `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${conversation.id}`
    expect((await chat.app.call('PATCH', path, { body: { status: 'handoff' } })).status).toBe(200)
    expect((await chat.app.call('PATCH', path, { body: { status: 'bot' } })).status).toBe(200)
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello'])
    expect(runs(conversation.id)[0]).toMatchObject({ status: 'dropped', outcome: 'a person took over' })
    expect(chat.drafts.map((draft) => draft.phase)).not.toContain('delta')
  })

  test('a chatbot deleted during a run takes the run with it, and no write fails', async () => {
    chat = await agentChat({ script: () => ({ text: 'Answer.', delayMs: 200 }), flow: () => billingFlow(null) })
    const doomed = chat.open('Hello')
    while (chat.model.requests.length === 0) await Bun.sleep(5)
    expect((await chat.app.call('DELETE', `/api/dev/v1/chatbots/${chat.chatbotId}`)).status).toBe(204)
    await chat.settled()
    expect(chat.app.db.query('SELECT count(*) AS n FROM agent_runs').get()).toEqual({ n: 0 })
    expect(chat.app.db.query('SELECT count(*) AS n FROM agent_trace').get()).toEqual({ n: 0 })
    expect(chat.app.services.conversations.get(doomed.id)).toBeUndefined()
    expect(chat.app.logLines.filter((line: string) => line.includes('batch commit failed'))).toEqual([])
  })

  test('runs beyond the per-workspace bound wait their turn and all are answered', async () => {
    chat = await agentChat({ script: () => ({ text: 'Answer.', delayMs: 50 }), flow: () => billingFlow(null), tuning: { runsPerWorkspace: 2 } })
    let working = 0
    let most = 0
    chat.app.events.on('conversation.typing', ({ active, from }) => {
      if (from !== 'bot') return
      working += active ? 1 : -1
      most = Math.max(most, working)
    })
    const conversations = Array.from({ length: 6 }, (_, i) => chat!.open(`question ${i}`))
    await chat.settled()
    expect(most).toBe(2)
    for (const conversation of conversations) expect(transcript(chat.messages(conversation.id)).at(-1)).toBe('bot: Answer.')
  })
})

describe('a run and the group commit', () => {
  /** Lets the microtasks queued so far run, without letting the event loop reach its I/O or timers. */
  const microtasksUntil = async (done: () => boolean) => {
    for (let turns = 0; !done() && turns < 1000; turns++) await Promise.resolve()
  }

  test("a run starts while the visitor's message is still in the open batch: typing and the model call do not wait for the commit", async () => {
    chat = await agentChat({ script: [{ text: 'Answer.' }], flow: () => billingFlow(null) })
    const seen: string[] = []
    chat.app.events.on('conversation.messages', ({ messages }) => void seen.push(...messages.map((message) => `stored ${message.role}`)))
    chat.app.events.on('conversation.typing', ({ active }) => void seen.push(`typing ${active}`))
    chat.open('Hello')
    await microtasksUntil(() => chat!.typing.length > 0)
    expect(chat.typing.map((event) => event.active)).toEqual([true])
    expect(chat.app.db.inTransaction).toBe(true)
    await chat.settled()
    expect(seen).toEqual(['typing true', 'stored visitor', 'typing false', 'stored bot'])
  })

  test("a run's end is committed and announced within the same task, not after the event loop's next round of I/O", async () => {
    chat = await agentChat({ script: [{ text: 'Answer.' }], flow: () => billingFlow(null) })
    let answerAnnounced = false
    const atTypingOff: boolean[] = []
    chat.app.events.on('conversation.messages', ({ messages }) => {
      if (messages.some((message) => message.role === 'bot')) answerAnnounced = true
    })
    chat.app.events.on('conversation.typing', ({ active }) => {
      if (active) return
      // Typing stops right after the end is written; a microtask queued now runs after the
      // commit the runner asked for (announcements come only after a commit).
      queueMicrotask(() => atTypingOff.push(answerAnnounced))
    })
    const conversation = chat.open('Hello')
    await chat.settled()
    expect(atTypingOff).toEqual([true])
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello', 'bot: Answer.'])
  })

  test('a batch that fails to commit takes the started run with it: its answer is neither stored nor announced', async () => {
    chat = await agentChat({ script: [{ text: 'Answer to a lost message.', delayMs: 100 }], flow: () => billingFlow(null) })
    const announced: string[] = []
    chat.app.events.on('conversation.messages', ({ messages }) => void announced.push(...messages.map((message) => message.role)))
    const conversation = chat.open('Hello')
    await microtasksUntil(() => chat!.typing.length > 0)
    expect(chat.app.db.inTransaction).toBe(true)
    // The batch's transaction is lost under it (as when the disk fails): its COMMIT then fails.
    chat.app.db.exec('ROLLBACK')
    while (chat.model.requests.length === 0) await Bun.sleep(5)
    await chat.settled()
    await Bun.sleep(150)
    expect(chat.app.services.conversations.get(conversation.id)).toBeUndefined()
    expect(chat.app.db.query('SELECT count(*) AS n FROM agent_runs').get()).toEqual({ n: 0 })
    expect(chat.app.db.query('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 })
    expect(announced).toEqual([])
    expect(chat.typing.map((event) => event.active)).toEqual([true, false])
    expect(chat.app.logLines.filter((line: string) => line.includes('batch commit failed'))).toHaveLength(1)
  })

  test('a run whose message was rolled back leaves no trace when a person then takes over', async () => {
    chat = await agentChat({ script: [{ text: 'First answer.' }, { text: 'Too late.', delayMs: 200 }], flow: () => billingFlow(null) })
    const conversation = chat.open('Hello')
    await chat.settled()
    const traced = () => chat!.app.db.query<{ n: number }, []>('SELECT count(*) AS n FROM agent_trace').get()!.n
    const before = traced()
    chat.say(conversation, 'And my other invoice?')
    await microtasksUntil(() => chat!.typing.length > 2)
    chat.app.db.exec('ROLLBACK')
    while (chat.model.requests.length < 2) await Bun.sleep(5)
    // The conversation is still there (only the second turn was lost): the drop must not write for the lost run.
    chat.app.services.conversations.agentSays(chat.app.services.conversations.get(conversation.id)!, 'Grace here.')
    await chat.settled()
    await Bun.sleep(250)
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Hello', 'bot: First answer.', 'agent: Grace here.'])
    expect(chat.app.db.query('SELECT count(*) AS n FROM agent_trace WHERE run_id NOT IN (SELECT id FROM agent_runs)').get()).toEqual({ n: 0 })
    expect(traced()).toBe(before)
  })
})

describe('restarts', () => {
  test('a run cut off by a shutdown stays pending and is answered once by the next start', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { parleyOnFile } = await import('../channels/rest-api/support/parley-on-file.ts')
    let answering = false
    const { fakeChatCompletions } = await import('../llm/support/fake-chat-completions.ts')
    const model = fakeChatCompletions(() => (answering ? { text: 'Answered after the restart.' } : { hang: true }))
    const dir = mkdtempSync(join(tmpdir(), 'parley-agent-restart-'))
    const env = { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' }
    try {
      const first = parleyOnFile(dir, env)
      const services = first.app.services
      const workspaceId = (await services.workspaces.authenticate((await services.workspaces.createKey({ name: 'restart', newWorkspace: true })).key)) as string
      const bot = services.chatbots.create(workspaceId, { name: 'Restart' })
      await services.chatbots.update(workspaceId, bot.id, { llm: { base_url: model.baseUrl, model: 'fake-1' } })
      const flow = await services.flows.create(workspaceId, bot.id, { name: 'Main', type: 'conversation', flow: billingFlow(null) } as never)
      await services.flows.publish(workspaceId, bot.id, flow.id)
      const contact = services.visitors.ensureContact(bot.id, { externalId: 'ada@example.com', tokenHash: 'ada' })
      const ctx = { chatbotId: bot.id, channel: 'web' as const, integrationId: null }
      const conversationId = services.conversations.openWith(ctx, contact.id, null, { content: { kind: 'text', text: 'Hello?' } }).conversation.id
      while (model.requests.length === 0) await Bun.sleep(5)
      await first.stop()

      answering = true
      const second = parleyOnFile(dir, env)
      for (let waited = 0; second.app.services.conversations.history(conversationId).messages.length < 2; waited += 10) {
        if (waited > 5_000) throw new Error('no answer after the restart')
        await Bun.sleep(10)
      }
      await Bun.sleep(100)
      expect(transcript(second.app.services.conversations.history(conversationId).messages)).toEqual(['visitor: Hello?', 'bot: Answered after the restart.'])
      expect(model.requests).toHaveLength(2)
      await second.stop()
    } finally {
      model.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
