import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { testApp, type TestApp } from '../support/test-app.ts'
import { brokenFlow, createChatbot, createFlow, flowPath, helloFlow, publish } from './flow-fixtures.ts'

describe('published versions', () => {
  let app: TestApp
  let botId: string
  let flowId: string
  const get = async () => (await app.call('GET', flowPath(botId, flowId))).body
  const patch = async (body: unknown) => await app.call('PATCH', flowPath(botId, flowId), { body })
  const versionCount = () =>
    app.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM flow_versions WHERE flow_id = ?').get(flowId)?.n

  beforeAll(async () => {
    app = testApp()
    botId = await createChatbot(app, 'Versions')
    flowId = await createFlow(app, botId, { name: 'Hello', type: 'conversation', flow: helloFlow('Hello v1') })
  })
  afterAll(() => app.close())

  test('a draft has no live version and nothing to publish yet', async () => {
    expect(await get()).toMatchObject({ status: 'draft', published_version: null, has_unpublished_changes: false })
    expect((await app.services.flows.publishedSnapshot(flowId))).toBeNull()
  })

  test('publishing snapshots the definition as version 1', async () => {
    const published = await publish(app, botId, flowId)
    expect(published.status).toBe(200)
    expect(await get()).toMatchObject({ status: 'published', published_version: 1, published_at: published.body.published_at, has_unpublished_changes: false })
    expect((await app.services.flows.publishedSnapshot(flowId))).toEqual({
      flowId,
      chatbotId: botId,
      type: 'conversation',
      version: 1,
      publishedAt: published.body.published_at,
      definition: helloFlow('Hello v1'),
    })
  })

  test('publishing an unchanged published flow answers 200 with the same published_at and no new version', async () => {
    const before = await get()
    const again = await publish(app, botId, flowId)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ id: flowId, status: 'published', published_at: before.published_at })
    expect(versionCount()).toBe(1)
  })

  test('a PATCH edits the working copy: still published, live snapshot unchanged, unpublished changes shown', async () => {
    const edited = await patch({ flow: helloFlow('Hello v2') })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: true, flow: helloFlow('Hello v2') })
    expect((await app.services.flows.publishedSnapshot(flowId))?.definition).toEqual(helloFlow('Hello v1'))
  })

  test('a rename alone is not an unpublished change of the definition', async () => {
    const renamed = await patch({ name: 'Hello again' })
    expect(renamed.body.has_unpublished_changes).toBe(true)
    const other = await createFlow(app, botId, { name: 'Plain', type: 'conversation', flow: helloFlow() })
    await publish(app, botId, other)
    const plainRenamed = await app.call('PATCH', flowPath(botId, other), { body: { name: 'Plain 2' } })
    expect(plainRenamed.body).toMatchObject({ name: 'Plain 2', has_unpublished_changes: false })
  })

  test('an invalid working copy cannot be published; the live version stays', async () => {
    await patch({ flow: brokenFlow() })
    const refused = await publish(app, botId, flowId)
    expect(refused.status).toBe(422)
    expect(refused.body.code).toBe('flow_invalid')
    expect(await get()).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: true })
    expect((await app.services.flows.publishedSnapshot(flowId))?.definition).toEqual(helloFlow('Hello v1'))
  })

  test('putting back the live definition clears has_unpublished_changes', async () => {
    const restored = await patch({ flow: helloFlow('Hello v1') })
    expect(restored.body.has_unpublished_changes).toBe(false)
  })

  test('republishing changes makes version 2 live and keeps version 1 as it was', async () => {
    await patch({ flow: helloFlow('Hello v2') })
    const before = await get()
    const published = await publish(app, botId, flowId)
    expect(published.status).toBe(200)
    expect(published.body.published_at >= before.published_at).toBe(true)
    expect(await get()).toMatchObject({ status: 'published', published_version: 2, published_at: published.body.published_at, has_unpublished_changes: false })
    expect(versionCount()).toBe(2)
    expect((await app.services.flows.publishedSnapshot(flowId))).toMatchObject({ version: 2, definition: helloFlow('Hello v2') })
    expect((await app.services.flows.versionSnapshot(flowId, 1))).toMatchObject({ version: 1, definition: helloFlow('Hello v1') })
    expect((await app.services.flows.versionSnapshot(flowId, 3))).toBeNull()
  })

  test('a published version cannot be altered, even from SQL', async () => {
    expect(() => app.db.exec(`UPDATE flow_versions SET definition = '{}' WHERE flow_id = '${flowId}'`)).toThrow('flow versions are immutable')
    expect((await app.services.flows.versionSnapshot(flowId, 1))?.definition).toEqual(helloFlow('Hello v1'))
  })

  test('deleting a published flow removes its versions', async () => {
    expect((await app.call('DELETE', flowPath(botId, flowId))).status).toBe(204)
    expect(versionCount()).toBe(0)
    expect((await app.services.flows.publishedSnapshot(flowId))).toBeNull()
    expect((await app.services.flows.versionSnapshot(flowId, 1))).toBeNull()
  })
})
