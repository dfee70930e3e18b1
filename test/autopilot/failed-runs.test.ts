import { afterEach, describe, expect, test } from 'bun:test'
import { type AgentChat, agentChat, billingFlow } from './support/agent-chat.ts'

/**
 * A run that fails tells the team why, classified and never with a secret: on the desk's
 * timeline (before the handoff it caused), in the context panel, in the trace, and counted on
 * the chatbot's overview.
 */
describe('a failed agent run, as the team sees it', () => {
  let chat: AgentChat
  afterEach(async () => {
    await chat?.close()
  })

  const desk = (conversationId: string, rest: string) => chat.app.call('GET', `/api/dev/v1/desk/conversations/${conversationId}/${rest}`)
  const events = async (conversationId: string) =>
    (await desk(conversationId, 'timeline')).body.items.filter((item: { type: string }) => item.type === 'event').map((item: { event: unknown }) => item.event)

  test('a refused key: the timeline says so before the handoff, the context panel too, and the key is nowhere', async () => {
    chat = await agentChat({ script: [{ status: 401, body: { error: { message: 'Incorrect API key provided: sk-test-key' } } }], flow: () => billingFlow(null) })
    const conversation = chat.open('Hello')
    await chat.settled()
    const shown = await events(conversation.id)
    expect(shown.map((event: { kind: string }) => event.kind)).toEqual(['agent_failed', 'handed_off'])
    const failed = shown[0]
    expect(failed.data).toEqual({
      state: 'billing',
      run_id: expect.any(String),
      failure: { kind: 'unauthorized', http_status: 401, message: "the provider refused Parley's credentials (HTTP 401): check the API key and what it may use" },
    })
    const context = await desk(conversation.id, 'context')
    expect(context.body.agent_failure).toEqual({ at: failed.at, state: 'billing', kind: 'unauthorized', http_status: 401, message: failed.data.failure.message })
    const trace = await chat.app.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${conversation.id}/trace`)
    expect(trace.body.items.at(-1).detail.failure).toEqual(failed.data.failure)
    // Open desks hear it live: the numbered feed carries the event, after the handoff's status.
    // A row holds one entry, or a batch's entries as an array (desk/feed-store.ts).
    const feed = () => chat.app.db.query<{ event: string }, []>('SELECT event FROM desk_feed ORDER BY seq').all().flatMap((row) => [JSON.parse(row.event)].flat())
    // Published once the run's end is committed: a moment after the run settles.
    for (let tries = 0; tries < 200 && !feed().some((entry) => entry.event?.kind === 'agent_failed'); tries++) await Bun.sleep(10)
    const fed = feed()
    expect(fed.filter((entry) => entry.type === 'timeline').map((entry) => entry.event.kind)).toEqual(['handed_off', 'agent_failed'])
    expect(fed.find((entry) => entry.event?.kind === 'agent_failed').event).toEqual(failed)
    for (const text of [JSON.stringify(shown), context.text, trace.text]) expect(text).not.toContain('sk-test-key')
  })

  test('each way a run fails has its kind: a timeout, no model, an empty answer', async () => {
    chat = await agentChat({ script: [{ hang: true }, { hang: true }, { hang: true }], flow: () => billingFlow(null, { on_error: 'sorry' }), tuning: { modelTimeoutMs: 100 } })
    const slow = chat.open('Hello')
    await chat.settled()
    expect((await events(slow.id))[0].data.failure).toMatchObject({ kind: 'timeout', http_status: null })
    await chat.close()

    chat = await agentChat({ script: [], llm: null, flow: () => billingFlow(null, { on_error: 'sorry' }) })
    const bare = chat.open('Hello')
    await chat.settled()
    expect((await events(bare.id))[0].data.failure).toEqual({ kind: 'no_model', http_status: null, message: 'the chatbot has no model set: set one on the Integrations screen (LLM) or with PATCH /chatbots/{id}' })
    await chat.close()

    chat = await agentChat({ script: [{ text: '   ' }], flow: () => billingFlow(null, { on_error: 'sorry' }) })
    const empty = chat.open('Hello')
    await chat.settled()
    expect((await events(empty.id))[0].data.failure).toMatchObject({ kind: 'no_answer', message: 'the model answered nothing' })
  })

  test("the chatbot's overview counts failed runs per day and lists the latest with their reason", async () => {
    chat = await agentChat({ script: [{ status: 429, body: {} }, { status: 429, body: {} }, { status: 429, body: {} }, { text: 'Fine.' }], flow: () => billingFlow(null, { on_error: 'sorry' }) })
    const failed = chat.open('Hello')
    await chat.settled()
    const answered = chat.open('Hi')
    await chat.settled()
    const { body } = await chat.app.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/activity`)
    expect(body.days.at(-1).agent_failures).toBe(1)
    expect(body.recent_agent_failures).toEqual([
      { conversation_id: failed.id, at: expect.any(String), state: 'billing', kind: 'rate_limited', http_status: 429, message: expect.stringContaining('HTTP 429') },
    ])
    expect(body.recent_agent_failures.map((f: { conversation_id: string }) => f.conversation_id)).not.toContain(answered.id)
  })
})
