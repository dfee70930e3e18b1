import { afterAll, expect } from 'bun:test'
import type { TestApp } from '../support/test-app.ts'
import { scenarios } from '../support/scenarios.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { billingFlow, runsSettled } from './support/agent-chat.ts'

/** Two answers (20 tokens each) then an exit (10): usage adds up per conversation and per chatbot. */
const model = fakeChatCompletions((body) => {
  const question = body.messages.findLast((message) => message.role === 'user')?.content
  if (question === 'bye') return { toolCalls: [{ name: 'exit_human', arguments: '{}' }], usage: { prompt_tokens: 8, completion_tokens: 2 } }
  return { text: `Re: ${question}`, usage: { prompt_tokens: 15, completion_tokens: 5 } }
})
afterAll(() => model.stop())

interface Ctx {
  bot: string
  first: string
  second: string
  otherKey: string
  otherBot: string
  otherConversation: string
}

async function setUp(app: TestApp, key?: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1${path}`, { body, key })
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  const bot = (await call('POST', '/chatbots', { name: 'Billing' })).id as string
  await call('PATCH', `/chatbots/${bot}`, { llm: { base_url: model.baseUrl, model: 'fake-1', api_key: 'sk-route-test' } })
  const flow = await call('POST', `/chatbots/${bot}/flows`, { name: 'Main', type: 'conversation', flow: billingFlow(null) })
  await call('POST', `/chatbots/${bot}/flows/${flow.id}/publish`)
  const ctx = { chatbotId: bot, channel: 'web' as const, integrationId: null }
  const open = async (user: string, texts: string[]) => {
    const contact = app.services.visitors.ensureContact(bot, { externalId: `${user}@example.com`, tokenHash: user })
    const { conversation } = app.services.conversations.openWith(ctx, contact.id, null, { content: { kind: 'text', text: texts[0]! } })
    await runsSettled(app)
    for (const text of texts.slice(1)) {
      app.services.conversations.visitorSays(app.services.conversations.get(conversation.id)!, { content: { kind: 'text', text } }, ctx)
      await runsSettled(app)
    }
    return conversation.id
  }
  return { bot, open }
}


scenarios<Ctx>(
  'agent trace and usage routes',
  async (app) => {
    const mine = await setUp(app)
    const first = await mine.open('ada', ['hello', 'bye'])
    const second = await mine.open('bob', ['invoice?'])
    const otherKey = app.otherWorkspaceKey()
    const theirs = await setUp(app, otherKey)
    const otherConversation = await theirs.open('eve', ['hi'])
    return { bot: mine.bot, first, second, otherKey, otherBot: theirs.bot, otherConversation }
  },
  [
    {
      name: 'the trace lists every model call and exit of the conversation, internal, oldest first, with its usage',
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.bot}/conversations/${c.first}/trace`,
      status: 200,
      check: ({ body }) => {
        expect(body.items.map((entry: { kind: string }) => entry.kind)).toEqual(['model', 'run', 'model', 'exit', 'run'])
        expect(body.items.every((entry: { internal: boolean }) => entry.internal === true)).toBe(true)
        expect(body.items[0].detail).toMatchObject({ model: 'fake-1', finish_reason: 'stop', content: 'Re: hello', usage: { total_tokens: 20 } })
        expect(body.items[1].detail).toMatchObject({ status: 'done', outcome: 'answer', total_tokens: 20 })
        expect(body.items[4].detail).toMatchObject({ status: 'done', outcome: 'exit', total_tokens: 10 })
        expect(body.total).toBe(5)
        expect(body.usage).toEqual({ runs: 2, model_calls: 2, prompt_tokens: 23, completion_tokens: 7, total_tokens: 30 })
        expect(JSON.stringify(body)).not.toContain('sk-route-test')
      },
    },
    {
      name: 'the trace pages with limit and offset',
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.bot}/conversations/${c.first}/trace?limit=2&offset=3`,
      status: 200,
      check: ({ body }) => {
        expect(body.items.map((entry: { kind: string }) => entry.kind)).toEqual(['exit', 'run'])
        expect(body.total).toBe(5)
      },
    },
    {
      name: 'the conversation messages never include the trace',
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.bot}/conversations/${c.first}/messages`,
      status: 200,
      check: ({ body }) => {
        expect(body.items.map((message: { role: string; content: { text: string } }) => `${message.role}: ${message.content.text}`)).toEqual([
          'visitor: hello',
          'bot: Re: hello',
          'visitor: bye',
          'bot: A person will take over.',
        ])
      },
    },
    {
      name: "the chatbot's usage adds its conversations up, most tokens first",
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.bot}/usage`,
      status: 200,
      check: ({ body }, c) => {
        expect(body).toEqual({
          chatbot_id: c.bot,
          runs: 3,
          model_calls: 3,
          prompt_tokens: 38,
          completion_tokens: 12,
          total_tokens: 50,
          conversations: {
            items: [
              { conversation_id: c.first, runs: 2, model_calls: 2, prompt_tokens: 23, completion_tokens: 7, total_tokens: 30 },
              { conversation_id: c.second, runs: 1, model_calls: 1, prompt_tokens: 15, completion_tokens: 5, total_tokens: 20 },
            ],
            total: 2,
          },
        })
      },
    },
    {
      name: 'usage pages its conversations',
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.bot}/usage?limit=1&offset=1`,
      status: 200,
      check: ({ body }, c) => {
        expect(body.conversations).toEqual({ items: [expect.objectContaining({ conversation_id: c.second })], total: 2 })
        expect(body.total_tokens).toBe(50)
      },
    },
    { name: "another workspace's chatbot: usage 404", method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.otherBot}/usage`, status: 404, code: 'not_found' },
    {
      name: "another workspace's conversation: trace 404",
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.otherBot}/conversations/${c.otherConversation}/trace`,
      status: 404,
      code: 'not_found',
    },
    {
      name: "another chatbot's conversation under mine: trace 404",
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.bot}/conversations/${c.otherConversation}/trace`,
      status: 404,
      code: 'not_found',
    },
    {
      name: 'the other workspace sees its own usage only',
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.otherBot}/usage`,
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ runs: 1, total_tokens: 20, conversations: { total: 1 } }),
    },
    { name: 'unknown chatbot: usage 404', method: 'GET', path: '/api/dev/v1/chatbots/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D/usage', status: 404, code: 'not_found' },
    { name: 'unknown conversation: trace 404', method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.bot}/conversations/nope/trace`, status: 404, code: 'not_found' },
    { name: 'without a key: 401', method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.bot}/usage`, key: null, status: 401 },
    { name: 'a bad limit: 422 at /limit', method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.bot}/usage?limit=0`, status: 422, errorPaths: ['/limit'] },
    { name: 'usage is read-only: POST 405', method: 'POST', path: (c) => `/api/dev/v1/chatbots/${c.bot}/usage`, body: {}, status: 405 },
  ],
  { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' },
)
