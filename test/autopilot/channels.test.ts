import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { signWebhook } from '../../server/outbox/sign-webhook.ts'
import { setUpChatappChat, text } from '../channels/chatapp/support/chatapp-chat.ts'
import { chatappTestbed } from '../channels/chatapp/support/chatapp-test.ts'
import { setUpRestApiChat } from '../channels/rest-api/support/rest-api-chat.ts'
import { fakeChatCompletions, type ScriptedReply } from '../llm/support/fake-chat-completions.ts'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { webhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { type LiveServer, liveServer } from '../support/live-server.ts'
import type { TestApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { billingFlow, runsSettled } from './support/agent-chat.ts'

/**
 * One flow with an agent state, on every channel: the same visitor messages get the same
 * answers (the model is scripted by the question), a tool is called on the way, and what the
 * team alone may see (the tool's result, the trace) reaches no visitor, webhook or provider.
 */

/** Only ever in the tool's result: it must show up in the trace and nowhere else. */
const MARKER = 'INTERNAL-7f3a-ledger-row'

function script(body: { messages: { role: string; content: string | null }[] }): ScriptedReply {
  const last = body.messages.at(-1)!
  if (last.role === 'tool') return { text: 'Invoice INV-7 is paid.', usage: { prompt_tokens: 30, completion_tokens: 6 } }
  const question = last.content ?? ''
  if (question.includes('invoice')) return { text: 'Checking.', toolCalls: [{ name: 'billing__echo', arguments: JSON.stringify({ text: MARKER }) }] }
  if (question.includes('person')) return { toolCalls: [{ name: 'exit_human', arguments: '{}' }] }
  return { text: `You said: ${question}` }
}

const QUESTIONS = ['hello', 'is my invoice paid?', 'I want a person']
const EXPECTED = [
  'visitor: hello',
  'bot: You said: hello',
  'visitor: is my invoice paid?',
  'bot: Invoice INV-7 is paid.',
  'visitor: I want a person',
  'bot: A person will take over.',
]

let tools: RunningMcpServer
const model = fakeChatCompletions(script)
beforeAll(async () => {
  tools = await streamableServer()
})
afterAll(async () => {
  model.stop()
  await tools.stop()
})

async function agentBot(app: TestApp, chatbotId: string): Promise<void> {
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1/chatbots/${chatbotId}${path}`, { body })
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  await call('PATCH', '', { llm: { base_url: model.baseUrl, model: 'fake-1', api_key: 'sk-channel-test' } })
  const mcp = await call('POST', '/integrations/mcp', { name: 'billing', url: tools.url })
  const flow = await call('POST', '/flows', { name: 'Agent', type: 'conversation', flow: billingFlow(mcp.id) })
  await call('POST', `/flows/${flow.id}/publish`)
  await call('PATCH', '', { entry_flow_id: flow.id })
}


async function transcriptOf(app: TestApp, chatbotId: string, conversationId: string): Promise<string[]> {
  const { body } = await app.call('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}/messages`)
  return body.items.map((message: { role: string; content: { text: string } }) => `${message.role}: ${message.content.text}`)
}

async function traceOf(app: TestApp, chatbotId: string, conversationId: string): Promise<string> {
  return (await app.call('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}/trace`)).text
}

describe('an agent state on every channel', () => {
  test('rest-api: the answers arrive as signed webhooks, one message.created each, without drafts or trace', async () => {
    const receiver = webhookReceiver()
    const server: LiveServer = liveServer({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
    try {
      const chat = await setUpRestApiChat(server, receiver.url, { flow: null })
      await agentBot(server, chat.chatbotId)
      let conversationId = ''
      for (const question of QUESTIONS) {
        const sent = await server.call('POST', chat.path(`/integrations/rest-api/messages`), { body: { user_id: 'ada@example.com', text: question } })
        expect(sent.status).toBe(202)
        conversationId = sent.body.conversation_id
        await runsSettled(server)
      }
      expect(await transcriptOf(server, chat.chatbotId, conversationId)).toEqual(EXPECTED)
      await receiver.waitFor(4)
      await Bun.sleep(200)
      const events = receiver.received
      expect(events.map((got) => got.json.type === 'message.created' ? `${got.json.data.message.role}: ${got.json.data.message.content.text}` : got.json.type)).toEqual([
        'bot: You said: hello',
        'bot: Invoice INV-7 is paid.',
        'bot: A person will take over.',
        'conversation.status_changed',
      ])
      for (const got of events) {
        const timestamp = Number(got.headers['webhook-timestamp'])
        expect(got.headers['webhook-signature']).toBe(signWebhook(chat.secret, got.headers['webhook-id']!, timestamp, got.body))
        expect(got.body).not.toContain(MARKER)
        expect(got.body).not.toContain('Checking.')
      }
      expect(await traceOf(server, chat.chatbotId, conversationId)).toContain(MARKER)
    } finally {
      await server.stop()
      receiver.stop()
    }
  })

  test('chatapp: the answers go to the provider as whole messages, without drafts or trace', async () => {
    const bed = chatappTestbed()
    try {
      const chat = await setUpChatappChat(bed.app, bed.graph, { flow: null })
      await agentBot(bed.app, chat.chatbotId)
      const sent: string[] = []
      for (const question of QUESTIONS) {
        await bed.say(chat, text(question))
        await runsSettled(bed.app)
        sent.push(...(await bed.sent()))
      }
      expect(sent).toEqual(['You said: hello', 'Invoice INV-7 is paid.', 'A person will take over.'])
      expect(JSON.stringify(bed.graph.received)).not.toContain(MARKER)
      const { body } = await bed.app.call('GET', chat.path('/conversations'))
      const conversationId = body.items[0].id
      expect(await transcriptOf(bed.app, chat.chatbotId, conversationId)).toEqual(EXPECTED)
      expect(await traceOf(bed.app, chat.chatbotId, conversationId)).toContain(MARKER)
    } finally {
      await bed.app.close()
      bed.graph.stop()
    }
  })

  test('web: the widget gets the same answers, and no frame carries the trace', async () => {
    const server: LiveServer = liveServer({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
    const client = await (async () => {
      const chat = await setUpWebChat(server, { flow: null })
      await agentBot(server, chat.chatbotId)
      return { chat, socket: await WidgetClient.connect(server.socketUrl(chat.widgetKey)) }
    })()
    try {
      const frames: unknown[] = [await client.socket.hello()]
      for (const [n, question] of QUESTIONS.entries()) {
        client.socket.send({ type: 'message', client_id: `q${n}`, text: question })
        frames.push(...(await client.socket.messages(2, 5000)))
      }
      await runsSettled(server)
      const { body } = await server.call('GET', `/api/dev/v1/chatbots/${client.chat.chatbotId}/conversations`)
      expect(await transcriptOf(server, client.chat.chatbotId, body.items[0].id)).toEqual(EXPECTED)
      frames.push(...client.socket.received)
      expect(frames.length).toBeGreaterThan(6)
      expect(JSON.stringify(frames)).not.toContain(MARKER)
      expect(await traceOf(server, client.chat.chatbotId, body.items[0].id)).toContain(MARKER)
    } finally {
      client.socket.close()
      await server.stop()
    }
  })
})
