import { afterAll, expect, test } from 'bun:test'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { webhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { billingFlow } from '../autopilot/support/agent-chat.ts'
import { crashBed, tally } from './support/crash-bed.ts'

/**
 * kill -9 of the compiled binary while LLM agent runs are under way (the model has the
 * questions and has not answered): after the restart each run is run again and each
 * conversation gets its answer exactly once, as a stored message and as one webhook.
 */

const CONVERSATIONS = 5

let answering = false
const model = fakeChatCompletions((body) => {
  if (!answering) return { hang: true }
  const question = body.messages.findLast((message) => message.role === 'user')?.content
  return { text: `Answer to ${question}` }
})
const receiver = webhookReceiver()
const bed = crashBed({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
afterAll(async () => {
  await bed.close()
  receiver.stop()
  model.stop()
})

test('kill -9 during agent runs: after the restart every conversation gets its answer once', async () => {
  await bed.start()
  const bot = await bed.chatbot('Agent', billingFlow(null))
  await bed.must('PATCH', `/api/dev/v1/chatbots/${bot}`, { llm: { base_url: model.baseUrl, model: 'fake-1' } })
  await bed.must('POST', `/api/dev/v1/chatbots/${bot}/integrations/rest-api`, { webhook_url: receiver.url, name: 'Back office' })
  const conversations: string[] = []
  for (let k = 0; k < CONVERSATIONS; k++) {
    const sent = await bed.must('POST', `/api/dev/v1/chatbots/${bot}/integrations/rest-api/messages`, { user_id: `user-${k}`, text: `question ${k}` })
    conversations.push(sent.conversation_id)
  }
  // Four run at once per workspace (the default bound); the fifth waits its turn.
  const RUNNING = 4
  for (let waited = 0; model.requests.length < RUNNING; waited += 20) {
    if (waited > 10_000) throw new Error(`only ${model.requests.length} runs reached the model`)
    await Bun.sleep(20)
  }
  await Bun.sleep(100)
  expect(model.requests).toHaveLength(RUNNING)
  await bed.kill()
  const pendingAtKill = bed.read((db) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM agent_runs WHERE status = 'pending'").get()?.n)
  expect(pendingAtKill).toBe(CONVERSATIONS)

  answering = true
  await bed.start()
  const answers = () => receiver.events().filter((event) => event?.type === 'message.created' && event.data.message.role === 'bot')
  for (let waited = 0; answers().length < CONVERSATIONS; waited += 20) {
    if (waited > 15_000) throw new Error(`only ${answers().length} answers arrived after the restart`)
    await Bun.sleep(20)
  }
  await Bun.sleep(300)
  const texts = answers().map((event) => event.data.message.content.text as string)
  expect([...tally(texts).values()].every((count) => count === 1)).toBe(true)
  expect(texts.toSorted()).toEqual(Array.from({ length: CONVERSATIONS }, (_, k) => `Answer to question ${k}`))
  for (const [k, id] of conversations.entries()) {
    const { items } = await bed.must('GET', `/api/dev/v1/chatbots/${bot}/conversations/${id}/messages`)
    expect(items.map((message: { role: string; content: { text: string } }) => `${message.role}: ${message.content.text}`)).toEqual([
      `visitor: question ${k}`,
      `bot: Answer to question ${k}`,
    ])
  }
  await bed.kill()
  const statuses = bed.read((db) => db.query<{ status: string }, []>('SELECT status FROM agent_runs').all().map((row) => row.status))
  expect(statuses).toEqual(Array.from({ length: CONVERSATIONS }, () => 'done'))
  console.log(`crash: kill -9 during ${CONVERSATIONS} agent runs; after the restart ${texts.length} answers, each once; model requests ${model.requests.length} (${RUNNING} cut off, ${model.requests.length - RUNNING} after)`)
}, 60_000)
