import { expect } from 'bun:test'
import { activePerson, browser } from '../people/support/people-context.ts'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { brokenFlow, createChatbot, createFlow, flowPath, helloFlow, publish, UNKNOWN_ID } from './flow-fixtures.ts'

/** A flow that asks for an e-mail, then hands off: captures, retries and handoffs all show in a draft run. */
const askFlow = {
  version: 1,
  start: 'ask',
  variables: { email: { type: 'string' } },
  states: {
    ask: { say: [{ text: 'Your e-mail, {{contact.name}}?' }], capture: { var: 'email', as: 'email', retry: 'That is not an e-mail.' }, next: 'thanks' },
    thanks: { say: [{ text: 'Thanks {{email}}' }], handoff: { resume: 'ask' } },
  },
}

async function setup(app: TestApp) {
  const botId = await createChatbot(app, 'Editor')
  const published = await createFlow(app, botId, { name: 'Hello', type: 'conversation', flow: helloFlow('v1') })
  await publish(app, botId, published)
  await app.call('PATCH', flowPath(botId, published), { body: { flow: helloFlow('v2') } })
  await publish(app, botId, published)
  await app.call('PATCH', flowPath(botId, published), { body: { flow: helloFlow('working copy') } })
  const draft = await createFlow(app, botId, { name: 'Ask', type: 'conversation', flow: askFlow })
  const broken = await createFlow(app, botId, { name: 'Broken', type: 'conversation', flow: brokenFlow() })
  const meta = await createFlow(app, botId, { name: 'Form', type: 'meta', flow: { version: '6.3', screens: [] } })
  const otherKey = app.otherWorkspaceKey()
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const countRows = () =>
    ['conversations', 'contacts', 'messages'].map((table) => app.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n)
  return { botId, published, draft, broken, meta, otherKey, agent, countRows }
}
type Ctx = Awaited<ReturnType<typeof setup>>

const versions = (c: Ctx, flowId = c.published) => `${flowPath(c.botId, flowId)}/versions`
const testRun = (c: Ctx, flowId = c.draft) => `${flowPath(c.botId, flowId)}/test-run`

scenarios<Ctx>('flow editor: versions and draft test runs', setup, [
  {
    name: 'the versions of a flow are listed newest first, without definitions',
    method: 'GET',
    path: (c) => versions(c),
    status: 200,
    check: ({ body }) => {
      expect(body.total).toBe(2)
      expect(body.items.map((v: { version: number }) => v.version)).toEqual([2, 1])
      expect(Object.keys(body.items[0]).sort()).toEqual(['published_at', 'version'])
    },
  },
  { name: 'a draft has no versions', method: 'GET', path: (c) => versions(c, c.draft), status: 200, check: ({ body }) => expect(body).toEqual({ items: [], total: 0 }) },
  {
    name: 'one version is read with its definition as published, not the working copy',
    method: 'GET',
    path: (c) => `${versions(c)}/1`,
    status: 200,
    check: ({ body }) => expect(body).toMatchObject({ version: 1, flow: helloFlow('v1') }),
  },
  { name: 'a version that was never published answers 404', method: 'GET', path: (c) => `${versions(c)}/3`, status: 404, code: 'not_found' },
  { name: 'a version that is not a number is refused', method: 'GET', path: (c) => `${versions(c)}/first`, status: 422, code: 'validation_failed' },
  { name: 'version 0 is refused', method: 'GET', path: (c) => `${versions(c)}/0`, status: 422, code: 'validation_failed' },
  { name: "another workspace's flow versions answer 404", method: 'GET', path: (c) => versions(c), key: (c) => c.otherKey, status: 404, code: 'not_found' },
  { name: "another workspace's version answers 404", method: 'GET', path: (c) => `${versions(c)}/1`, key: (c) => c.otherKey, status: 404, code: 'not_found' },
  { name: 'an unknown flow has no versions', method: 'GET', path: (c) => versions(c, UNKNOWN_ID), status: 404, code: 'not_found' },
  {
    name: 'a draft run starts the saved working copy and answers the messages and state',
    method: 'POST',
    path: (c) => testRun(c),
    body: { state: null, input: { kind: 'start' }, contact: { name: 'Ada' } },
    status: 200,
    check: ({ body }) => {
      expect(body.messages).toEqual([{ kind: 'text', text: 'Your e-mail, Ada?' }])
      expect(body.state).toMatchObject({ state: 'ask', status: 'bot', waiting: 'capture' })
    },
  },
  {
    name: 'a draft run continues from the state sent: a refused capture asks again',
    method: 'POST',
    path: (c) => testRun(c),
    body: { state: { state: 'ask', status: 'bot', waiting: 'capture', variables: {}, interactive: [] }, input: { kind: 'text', text: 'not an e-mail' } },
    status: 200,
    check: ({ body }) => {
      expect(body.messages).toEqual([{ kind: 'text', text: 'That is not an e-mail.' }])
      expect(body.events).toEqual([{ type: 'capture_rejected', state: 'ask', var: 'email', as: 'email' }])
    },
  },
  {
    name: 'a draft run hands off like a live conversation, and stores nothing',
    method: 'POST',
    path: (c) => testRun(c),
    body: { state: { state: 'ask', status: 'bot', waiting: 'capture', variables: {}, interactive: [] }, input: { kind: 'text', text: 'ada@acme.io' } },
    status: 200,
    check: ({ body }, c) => {
      expect(body.messages).toEqual([{ kind: 'text', text: 'Thanks ada@acme.io' }])
      expect(body.state).toMatchObject({ status: 'handoff', variables: { email: 'ada@acme.io' } })
      expect(body.events.map((e: { type: string }) => e.type)).toEqual(['captured', 'handoff'])
      if (c) expect(c.countRows()).toEqual([0, 0, 0])
    },
  },
  {
    name: 'a draft run takes an unsaved definition instead of the working copy',
    method: 'POST',
    path: (c) => testRun(c, c.published),
    body: { flow: helloFlow('unsaved'), state: null, input: { kind: 'start' } },
    status: 200,
    check: ({ body }) => expect(body.messages).toEqual([{ kind: 'text', text: 'unsaved' }]),
  },
  {
    name: 'a draft run of the working copy of a published flow runs the working copy, not the live version',
    method: 'POST',
    path: (c) => testRun(c, c.published),
    body: { state: null, input: { kind: 'start' } },
    status: 200,
    check: ({ body }) => expect(body.messages).toEqual([{ kind: 'text', text: 'working copy' }]),
  },
  {
    name: 'a draft with validation errors is refused with the errors at their JSON pointers',
    method: 'POST',
    path: (c) => testRun(c, c.broken),
    body: { state: null, input: { kind: 'start' } },
    status: 422,
    code: 'flow_invalid',
    check: ({ body }) => expect(body.errors.map((e: { path: string }) => e.path)).toContain('/states/hello/on/0/to'),
  },
  {
    name: 'a meta flow does not run',
    method: 'POST',
    path: (c) => testRun(c, c.meta),
    body: { state: null, input: { kind: 'start' } },
    status: 422,
    code: 'not_a_conversation_flow',
  },
  { name: 'an input of an unknown kind is refused', method: 'POST', path: (c) => testRun(c), body: { state: null, input: { kind: 'agent_exit', exit: 0, values: {} } }, status: 422, code: 'validation_failed' },
  { name: 'a state of the wrong shape is refused', method: 'POST', path: (c) => testRun(c), body: { state: { state: 'ask' }, input: { kind: 'text', text: 'x' } }, status: 422, code: 'validation_failed' },
  { name: 'the state is required', method: 'POST', path: (c) => testRun(c), body: { input: { kind: 'start' } }, status: 422, errorPaths: ['/state'] },
  { name: 'unknown fields are refused', method: 'POST', path: (c) => testRun(c), body: { state: null, input: { kind: 'start' }, live: true }, status: 422, errorPaths: ['/live'] },
  { name: 'a body that is not JSON is refused', method: 'POST', path: (c) => testRun(c), rawBody: '{', headers: { 'content-type': 'application/json' }, status: 400, code: 'malformed_json' },
  { name: "another workspace's flow does not run", method: 'POST', path: (c) => testRun(c), key: (c) => c.otherKey, body: { state: null, input: { kind: 'start' } }, status: 404, code: 'not_found' },
  {
    name: 'an agent may read versions',
    method: 'GET',
    path: (c) => versions(c),
    key: null,
    headers: (c) => browser(c.agent.cookie),
    status: 200,
  },
  {
    name: 'an agent may not run drafts (an admin action)',
    method: 'POST',
    path: (c) => testRun(c),
    key: null,
    headers: (c) => browser(c.agent.cookie),
    body: { state: null, input: { kind: 'start' } },
    status: 403,
    code: 'forbidden',
  },
])
