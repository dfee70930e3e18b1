import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { type RestApiChat, setUpRestApiChat } from '../channels/rest-api/support/rest-api-chat.ts'
import { createFlow } from '../flows/flow-fixtures.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

const flow: ConversationFlow = {
  version: 1,
  start: 'welcome',
  variables: { email: { type: 'string' } },
  states: {
    welcome: {
      say: [{ text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] }],
      on: [{ button: 'sales', to: 'ask_email' }, { button: 'support', to: 'human' }, { equals: 'robot', to: 'ai' }, { to: 'welcome' }],
    },
    ask_email: { say: [{ text: 'Your e-mail?' }], capture: { var: 'email', as: 'email' }, next: 'thanks' },
    thanks: { say: [{ text: 'Thanks' }], end: true },
    human: { handoff: { text: 'A person will answer.' } },
    ai: { agent: { instructions: 'Help', exits: [{ when: 'done', to: 'thanks' }] } },
  },
}

let app: TestApp
let chat: RestApiChat
const insights = (query = '') => app.call('GET', chat.path(`/flows/${chat.flowId}/insights${query}`))
const say = async (user: string, text: string) => {
  const sent = await app.call('POST', chat.path('/integrations/rest-api/messages'), { body: { user_id: user, text } })
  if (sent.status !== 202) throw new Error(sent.text)
}

beforeAll(async () => {
  app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook', { flow })
  await say('u1', 'Sales')
  await say('u1', 'ada@lovelace.dev')
  await say('u2', 'Support')
  await say('u3', 'hello')
  await say('u3', 'something else')
  // The chatbot has no model: the agent's run fails, and without on_error a person takes over.
  await say('u4', 'robot')
  for (let tries = 0; tries < 100; tries++) {
    if ((await insights()).body.states.find((s: { state: string }) => s.state === 'ai')?.agent_failures) break
    await Bun.sleep(50)
  }
})
afterAll(() => app.close())

describe('GET .../flows/{flow_id}/insights', () => {
  test('counts each way taken and, per state, entries, exits, stops, handoffs and agent failures of the live version', async () => {
    const { status, body } = await insights()
    expect(status).toBe(200)
    expect(body.version).toBe(1)
    expect(body.started).toBe(4)
    const way = (from: string | null, name: string) => body.ways.find((w: any) => w.from === from && w.way === name)
    expect(way(null, 'start')).toEqual({ from: null, way: 'start', to: 'welcome', times: 4, conversations: 4 })
    expect(way('welcome', 'on/0')).toMatchObject({ to: 'ask_email', times: 1 })
    expect(way('ask_email', 'next')).toMatchObject({ to: 'thanks', times: 1 })
    expect(way('welcome', 'on/1')).toMatchObject({ to: 'human', times: 1 })
    expect(way('welcome', 'on/2')).toMatchObject({ to: 'ai', times: 1 })
    expect(way('welcome', 'on/3')).toMatchObject({ to: 'welcome', times: 1, conversations: 1 })
    const state = (name: string) => body.states.find((s: any) => s.state === name)
    expect(state('welcome')).toEqual({ state: 'welcome', entered: 5, conversations: 4, left: 4, stopped: 1, handoffs: 0, agent_failures: 0 })
    expect(state('ask_email')).toMatchObject({ entered: 1, left: 1, stopped: 0 })
    expect(state('thanks')).toMatchObject({ entered: 1, stopped: 1 })
    expect(state('human')).toMatchObject({ entered: 1, stopped: 1, handoffs: 1 })
    expect(state('ai')).toMatchObject({ entered: 1, stopped: 1, handoffs: 1, agent_failures: 1 })
  })

  test('a period before the conversations counts nothing', async () => {
    const { body } = await insights('?since=2020-01-01T00:00:00Z&until=2020-02-01T00:00:00Z')
    expect(body).toEqual({ version: 1, since: '2020-01-01T00:00:00.000Z', until: '2020-02-01T00:00:00.000Z', started: 0, states: [], ways: [] })
  })

  test('a version never published answers 404; a period that ends before it starts 422', async () => {
    expect((await insights('?version=7')).status).toBe(404)
    const reversed = await insights('?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z')
    expect(reversed.status).toBe(422)
    expect(reversed.body.code).toBe('invalid_period')
    expect((await insights('?since=yesterday')).status).toBe(422)
  })

  test.each([
    ['until', '?until=-271821-04-20T00:00:00.042Z'],
    ['since', '?since=1969-12-31T23:59:59Z'],
    ['until', '?until=%2B010000-01-01T00:00:00Z'],
  ])('a time outside 1970-9999 is 422 naming %s, never a 500', async (field, query) => {
    const answer = await insights(query)
    expect(answer.status).toBe(422)
    expect(answer.body.errors?.[0]).toMatchObject({ path: `/${field}`, code: expect.any(String) })
  })

  test('an until early in 1970 counts from the first instant of 1970 by default', async () => {
    const { status, body } = await insights('?until=1970-01-05T00:00:00Z')
    expect(status).toBe(200)
    expect(body).toMatchObject({ since: '1970-01-01T00:00:00.000Z', until: '1970-01-05T00:00:00.000Z', started: 0 })
  })

  test('a draft has no counts; a meta flow has no states; another workspace gets 404', async () => {
    const draft = await createFlow(app, chat.chatbotId, { name: 'Draft', type: 'conversation', flow })
    expect((await app.call('GET', chat.path(`/flows/${draft}/insights`))).body).toMatchObject({ version: null, started: 0, states: [], ways: [] })
    const meta = await createFlow(app, chat.chatbotId, { name: 'Form', type: 'meta', flow: { version: '6.3', screens: [] } })
    expect((await app.call('GET', chat.path(`/flows/${meta}/insights`))).status).toBe(422)
    expect((await app.call('GET', chat.path(`/flows/${chat.flowId}/insights`), { key: app.otherWorkspaceKey() })).status).toBe(404)
  })
})
