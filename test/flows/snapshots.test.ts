import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import type { DomainEvents } from '../../server/events/domain-events.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { chatbotsPath, createChatbot, createFlow, flowPath, helloFlow, publish } from './flow-fixtures.ts'

let app: TestApp
let botId: string
beforeEach(async () => {
  app = testApp()
  botId = await createChatbot(app, 'Entry')
})
afterEach(() => app.close())

const setEntry = (flowId: string | null) => app.call('PATCH', `${chatbotsPath}/${botId}`, { body: { entry_flow_id: flowId } })
/** The version a new conversation starts on, read whole. */
const entrySnapshot = async () => {
  const at = await app.services.flows.entryVersion(botId)
  const snapshot = at ? await app.services.flows.versionSnapshot(at.flowId, at.version) : null
  return snapshot?.type === 'conversation' ? snapshot : null
}
const entryGreeting = async () => ((await entrySnapshot())?.definition.states.hello?.say?.[0] as { text?: string } | undefined)?.text

describe('where a new conversation starts', () => {
  test('nowhere while the chatbot has no published conversation flow', async () => {
    await createFlow(app, botId, { name: 'Draft', type: 'conversation', flow: helloFlow('draft') })
    expect(await entrySnapshot()).toBeNull()
  })

  test('in the most recently published conversation flow, by default', async () => {
    const first = await createFlow(app, botId, { name: 'First', type: 'conversation', flow: helloFlow('first') })
    const second = await createFlow(app, botId, { name: 'Second', type: 'conversation', flow: helloFlow('second') })
    await publish(app, botId, second)
    await publish(app, botId, first)
    expect(await entrySnapshot()).toMatchObject({ flowId: first, chatbotId: botId, type: 'conversation', version: 1 })
    await app.call('PATCH', flowPath(botId, second), { body: { flow: helloFlow('second, v2') } })
    await publish(app, botId, second)
    expect(await entryGreeting()).toBe('second, v2')
  })

  test('in the entry flow when it is set and published, else in the latest published one', async () => {
    const entry = await createFlow(app, botId, { name: 'Entry', type: 'conversation', flow: helloFlow('entry') })
    const latest = await createFlow(app, botId, { name: 'Latest', type: 'conversation', flow: helloFlow('latest') })
    expect((await setEntry(entry)).status).toBe(200)
    await publish(app, botId, latest)
    expect(await entryGreeting()).toBe('latest')
    await publish(app, botId, entry)
    await app.call('PATCH', flowPath(botId, latest), { body: { flow: helloFlow('latest, v2') } })
    await publish(app, botId, latest)
    expect(await entrySnapshot()).toMatchObject({ flowId: entry, version: 1 })
    expect(await entryGreeting()).toBe('entry')
  })

  test('never in a meta flow, and a chatbot\'s entry flow cannot be a meta flow', async () => {
    const meta = await createFlow(app, botId, { name: 'Form', type: 'meta' })
    const refused = await setEntry(meta)
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual([{ path: '/entry_flow_id', message: 'must name a conversation flow' }])
    expect(await entrySnapshot()).toBeNull()
  })

  test('the entry flow must be one of this chatbot\'s flows', async () => {
    const otherBot = await createChatbot(app, 'Other')
    const theirs = await createFlow(app, otherBot, { name: 'Theirs', type: 'conversation', flow: helloFlow() })
    expect((await setEntry(theirs)).status).toBe(422)
  })

  test('a published snapshot of an unknown flow is null', async () => {
    expect((await app.services.flows.publishedSnapshot('01ARZ3NDEKTSV4RRFFQ69G5FAV'))).toBeNull()
  })
})

describe('deleting a flow', () => {
  test('announces flow.removed with its workspace, chatbot and id', async () => {
    const flowId = await createFlow(app, botId, { name: 'Gone', type: 'conversation', flow: helloFlow() })
    const seen: DomainEvents['flow.removed'][] = []
    app.events.on('flow.removed', (payload) => seen.push(payload))
    await app.call('DELETE', flowPath(botId, flowId))
    const workspaceId = app.db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?').get(botId)?.workspace_id
    expect(seen).toEqual([{ workspaceId: workspaceId as string, chatbotId: botId, flowId }])
  })

  test('announces nothing when the flow does not exist', async () => {
    const seen: unknown[] = []
    app.events.on('flow.removed', (payload) => seen.push(payload))
    expect((await app.call('DELETE', flowPath(botId, '01ARZ3NDEKTSV4RRFFQ69G5FAV'))).status).toBe(404)
    expect(seen).toEqual([])
  })

  test('clears the chatbot\'s entry_flow_id when it was the entry flow, and new conversations start in the next one', async () => {
    const entry = await createFlow(app, botId, { name: 'Entry', type: 'conversation', flow: helloFlow('entry') })
    const other = await createFlow(app, botId, { name: 'Other', type: 'conversation', flow: helloFlow('other') })
    await publish(app, botId, other)
    await publish(app, botId, entry)
    await setEntry(entry)
    await app.call('DELETE', flowPath(botId, entry))
    const bot = (await app.call('GET', `${chatbotsPath}/${botId}`)).body
    expect(bot).toMatchObject({ entry_flow_id: null, updated_at: expect.any(String) })
    expect(await entryGreeting()).toBe('other')
  })

  test('leaves the entry_flow_id alone when another flow is deleted', async () => {
    const entry = await createFlow(app, botId, { name: 'Entry', type: 'conversation', flow: helloFlow() })
    const other = await createFlow(app, botId, { name: 'Other', type: 'conversation', flow: helloFlow() })
    await setEntry(entry)
    await app.call('DELETE', flowPath(botId, other))
    expect((await app.call('GET', `${chatbotsPath}/${botId}`)).body.entry_flow_id).toBe(entry)
  })

  test('deleting the chatbot deletes its flows and their versions', async () => {
    const flowId = await createFlow(app, botId, { name: 'Live', type: 'conversation', flow: helloFlow() })
    await publish(app, botId, flowId)
    expect((await app.call('DELETE', `${chatbotsPath}/${botId}`)).status).toBe(204)
    expect(app.db.query('SELECT count(*) AS n FROM flows').get()).toEqual({ n: 0 })
    expect(app.db.query('SELECT count(*) AS n FROM flow_versions').get()).toEqual({ n: 0 })
    expect((await app.services.flows.publishedSnapshot(flowId))).toBeNull()
  })
})

describe("the chatbot's entry flow, read back", () => {
  test('a deleted entry flow leaves the chatbot without one, even right after the chatbot was read', async () => {
    const flow = await createFlow(app, botId, { name: 'Entry', type: 'conversation', flow: helloFlow('entry') })
    await setEntry(flow)
    expect((await app.call('GET', `${chatbotsPath}/${botId}`)).body.entry_flow_id).toBe(flow)
    expect((await app.call('DELETE', flowPath(botId, flow))).status).toBe(204)
    expect((await app.call('GET', `${chatbotsPath}/${botId}`)).body.entry_flow_id).toBeNull()
  })
})
