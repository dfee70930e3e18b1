import { afterAll, describe, expect, test } from 'bun:test'
import { integrationService } from '../../server/integrations/service.ts'
import { sqliteUnits } from '../../server/db/sqlite-units.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { sqliteStores } from '../../server/stores.ts'
import { systemClock } from '../../server/support/clock.ts'
import { outboundUrlPolicy } from '../../server/support/outbound-url.ts'
import { testApp } from '../support/test-app.ts'
import { integrationsOf } from './support/integration-context.ts'

const VERIFY_TOKEN = 'verify-token-27182818'
const hook = (id: string, token: string) =>
  `/hooks/chatapp/${id}?${new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' })}`

describe("the chatapp integration's record of the provider's verify handshakes (GET .../integrations/chatapp/handshake)", () => {
  const app = testApp()
  afterAll(() => app.close())
  const bot = async (key?: string) => (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Chat' }, key })).body.id as string
  const create = async (botId: string, key?: string) =>
    (await app.call('POST', integrationsOf(botId, '/chatapp'), { body: { phone_number_id: '1065', access_token: 'EAAG-access-0123456789', verify_token: VERIFY_TOKEN }, key })).body
  const handshakeOf = async (botId: string, key?: string) => (await app.call('GET', integrationsOf(botId, '/chatapp/handshake'), { key })).body

  test('a new integration has had no handshake; a chatbot without the integration answers 404', async () => {
    const botId = await bot()
    expect((await app.call('GET', integrationsOf(botId, '/chatapp/handshake'))).status).toBe(404)
    await create(botId)
    expect(await handshakeOf(botId)).toEqual({ verified_at: null, refused_at: null, refusal: null })
  })

  test('a refused handshake is remembered with its reason (not stored), a later success stored beside it; a later refusal does not erase the success', async () => {
    const botId = await bot()
    const { id, updated_at } = await create(botId)
    const stored = () => app.db.query<{ config: string }, [string]>('SELECT config FROM integrations WHERE id = ?').get(id)?.config
    const before = stored()
    expect((await app.call('GET', hook(id, 'wrong-token'), { key: null })).status).toBe(403)
    // Remembered, not stored: a refused request stores nothing.
    expect(stored()).toBe(before)
    const refused = await handshakeOf(botId)
    expect(refused.verified_at).toBeNull()
    expect(refused.refusal).toBe('hub.verify_token does not match the verify_token of this integration')
    expect(Date.parse(refused.refused_at)).toBeGreaterThan(Date.now() - 60_000)

    expect((await app.call('GET', hook(id, VERIFY_TOKEN), { key: null })).text).toBe('1158201444')
    const verified = await handshakeOf(botId)
    expect(Date.parse(verified.verified_at)).toBeGreaterThanOrEqual(Date.parse(refused.refused_at))
    expect(verified.refusal).toBe(refused.refusal)

    expect((await app.call('GET', hook(id, 'another-wrong-one'), { key: null })).status).toBe(403)
    const again = await handshakeOf(botId)
    expect(again.verified_at).toBe(verified.verified_at)
    // The admin's own last change is still the record's updated_at: handshakes are not edits.
    expect((await app.call('GET', integrationsOf(botId, '/chatapp'))).body.updated_at).toBe(updated_at)
  })

  test("an inactive integration's handshake is refused and says why; a PATCH keeps the record", async () => {
    const botId = await bot()
    const { id } = await create(botId)
    await app.call('PATCH', integrationsOf(botId, '/chatapp'), { body: { is_active: false } })
    expect((await app.call('GET', hook(id, VERIFY_TOKEN), { key: null })).status).toBe(403)
    expect((await handshakeOf(botId)).refusal).toContain('inactive')
    await app.call('PATCH', integrationsOf(botId, '/chatapp'), { body: { is_active: true, access_token: 'EAAG-new-token-0123456789' } })
    expect((await handshakeOf(botId)).refusal).toContain('inactive')
  })

  test("another workspace's integration is 404 to this one, and its handshake record is its own", async () => {
    const otherKey = app.otherWorkspaceKey()
    const theirBot = await bot(otherKey)
    const { id } = await create(theirBot, otherKey)
    await app.call('GET', hook(id, VERIFY_TOKEN), { key: null })
    expect((await app.call('GET', integrationsOf(theirBot, '/chatapp/handshake'))).status).toBe(404)
    expect((await handshakeOf(theirBot, otherKey)).verified_at).toMatch(/^\d{4}-/)
  })
})

describe('refused handshakes are forgotten with what they were about', () => {
  const app = testApp()
  afterAll(() => app.close())
  // The same database and events as the app, remembering 2 refusals at most: one kept for a
  // removed integration would push out a live integration's refusal.
  const stores = sqliteStores(app.db)
  const service = integrationService({
    stores,
    units: sqliteUnits(writeBatcher(app.db, () => {}), stores),
    now: systemClock,
    events: app.events,
    ownsChatbot: async () => true,
    publicUrl: 'http://parley.test',
    outbound: outboundUrlPolicy([]),
    maxRememberedRefusals: 2,
  })
  const chatappOn = async () => {
    const botId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Chat' } })).body.id as string
    const { id } = (await app.call('POST', integrationsOf(botId, '/chatapp'), { body: { phone_number_id: '1065', access_token: 'EAAG-access-0123456789', verify_token: VERIFY_TOKEN } })).body
    const workspaceId = app.db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?').get(botId)!.workspace_id
    return { botId, id: id as string, refusal: async () => (await service.chatappHandshake(workspaceId, botId)).refusal }
  }
  const refuse = (id: string) => service.recordChatappHandshake(id, { verified: false, refusal: `refused ${id}` })

  test.each([
    ['its chatbot is deleted', (gone: { botId: string; id: string }) => app.call('DELETE', `/api/dev/v1/chatbots/${gone.botId}`)],
    ['the integration is deleted', (gone: { botId: string; id: string }) => app.call('DELETE', integrationsOf(gone.botId, `/${gone.id}`))],
  ])('when %s, its refusal goes and no longer pushes out a live one', async (_, remove) => {
    const live = await chatappOn()
    const gone = await chatappOn()
    const third = await chatappOn()
    await refuse(live.id)
    await refuse(gone.id)
    expect((await remove(gone)).status).toBe(204)
    await refuse(third.id)
    expect(await live.refusal()).toBe(`refused ${live.id}`)
    expect(await third.refusal()).toBe(`refused ${third.id}`)
  })
})
