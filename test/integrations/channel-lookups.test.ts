import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { integrationService } from '../../server/integrations/service.ts'
import { sqliteUnits } from '../../server/db/sqlite-units.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { sqliteIntegrationStore } from '../../server/integrations/sqlite-store.ts'
import { sqliteStores } from '../../server/stores.ts'
import { systemClock } from '../../server/support/clock.ts'
import { eventBus } from '../../server/events/domain-events.ts'
import { newId } from '../../server/support/new-id.ts'
import { outboundUrlPolicy } from '../../server/support/outbound-url.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { integrationsOf } from './support/integration-context.ts'

const IDENTITY_SECRET = 'identity-secret-for-hmac-0001'

describe('lookups for the channels and the flow validator', () => {
  let app: TestApp
  let botId: string
  let otherBotId: string
  let workspaceId: string
  beforeAll(async () => {
    app = testApp()
    botId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Bot' } })).body.id
    otherBotId = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Other' } })).body.id
    workspaceId = app.db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?').get(botId)!.workspace_id
  })
  afterAll(() => app.close())

  const insert = async (chatbotId: string, type: 'mcp' | 'web', createdAt: string, publicKey: string | null = null, name?: string) => {
    const id = newId()
    const result = await sqliteIntegrationStore(app.db).insert({
      id, chatbot_id: chatbotId, workspace_id: workspaceId, type, name: name ?? (type === 'mcp' ? `tools-${id}` : type), is_active: true,
      config: {}, secrets: {}, public_key: publicKey, created_at: createdAt, updated_at: null,
    })
    return { id, result }
  }

  test('findWebByWidgetKey gives the socket everything it needs, the identity secret raw', async () => {
    const created = await app.call('POST', integrationsOf(botId, '/web'), {
      body: {
        name: 'Site',
        allowed_domains: ['Example.com', '*.example.com'],
        greeting_message: 'Hello!',
        widget_config: { primary_color: '#112233' },
        identity_secret: IDENTITY_SECRET,
        default_country: 'de',
      },
    })
    expect(await app.services.integrations.findWebByWidgetKey(created.body.config.widget_key)).toEqual({
      integrationId: created.body.id,
      chatbotId: botId,
      workspaceId,
      isActive: true,
      name: 'Site',
      allowedDomains: ['example.com', '*.example.com'],
      widgetConfig: { ...created.body.config.widget_config, primary_color: '#112233' },
      greetingMessage: 'Hello!',
      identitySecret: IDENTITY_SECRET,
      defaultCountry: 'DE',
    })
  })

  test('findWebByWidgetKey forgets what it read inside a batch that was rolled back', async () => {
    const ownBot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Rolled back' } })).body.id
    const created = await app.call('POST', integrationsOf(ownBot, '/web'), { body: { name: 'Rolled back' } })
    const key = created.body.config.widget_key
    app.db.exec('BEGIN IMMEDIATE')
    app.db.run('UPDATE integrations SET is_active = 0 WHERE id = ?', [created.body.id])
    expect((await app.services.integrations.findWebByWidgetKey(key))?.isActive).toBe(false)
    app.db.exec('ROLLBACK')
    // What the write batcher announces when its commit fails.
    app.events.emit('database.rolled_back', {})
    expect((await app.services.integrations.findWebByWidgetKey(key))?.isActive).toBe(true)
  })

  test('findWebByWidgetKey follows PATCHes and answers null once the integration is deleted', async () => {
    const { widget_key } = (await app.call('GET', integrationsOf(botId, '/web'))).body.config
    await app.call('PATCH', integrationsOf(botId, '/web'), { body: { is_active: false, identity_secret: null, allowed_domains: [] } })
    expect(await app.services.integrations.findWebByWidgetKey(widget_key)).toMatchObject({ isActive: false, identitySecret: null, allowedDomains: [] })
    const id = (await app.call('GET', integrationsOf(botId, '/web'))).body.id
    await app.call('DELETE', integrationsOf(botId, `/${id}`))
    expect(await app.services.integrations.findWebByWidgetKey(widget_key)).toBeNull()
  })

  test('findWebByWidgetKey answers null once the chatbot is deleted, its integrations with it', async () => {
    const doomed = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Doomed' } })).body.id
    const { widget_key } = (await app.call('POST', integrationsOf(doomed, '/web'), { body: { name: 'Doomed site' } })).body.config
    expect(await app.services.integrations.findWebByWidgetKey(widget_key)).toMatchObject({ chatbotId: doomed })
    expect((await app.call('DELETE', `/api/dev/v1/chatbots/${doomed}`)).status).toBe(204)
    expect(await app.services.integrations.findWebByWidgetKey(widget_key)).toBeNull()
  })

  test('findWebByWidgetKey answers null for an unknown key', async () => {
    expect(await app.services.integrations.findWebByWidgetKey('wk_000000000000000000000000')).toBeNull()
    expect(await app.services.integrations.findWebByWidgetKey('')).toBeNull()
  })

  test('a widget_config stored by an older version reads in today\'s shape, in lookups and in the API', async () => {
    const { id } = await insert(otherBotId, 'web', '2026-01-01T00:00:00.000Z', 'wk_storedlongagostoredlong')
    app.db.query('UPDATE integrations SET config = ? WHERE id = ?').run(
      JSON.stringify({ allowed_domains: [], greeting_message: null, widget_config: { width: 300, retired_key: 1 }, default_country: null }),
      id,
    )
    const found = await app.services.integrations.findWebByWidgetKey('wk_storedlongagostoredlong')
    expect(found?.widgetConfig).toMatchObject({ width: 300, height: 600, primary_color: '#0066ff', allowed_paths: null })
    expect(found?.widgetConfig).not.toHaveProperty('retired_key')
    const read = await app.call('GET', integrationsOf(otherBotId, '/web'))
    expect(read.status).toBe(200)
    expect(read.body.config.widget_config).toMatchObject({ width: 300, height: 600 })
  })

  test('listMcpIntegrationIds lists the chatbot\'s mcp integrations only, oldest first', async () => {
    const later = (await insert(botId, 'mcp', '2026-03-01T00:00:00.000Z')).id
    const earlier = (await insert(botId, 'mcp', '2026-02-01T00:00:00.000Z')).id
    await insert(otherBotId, 'mcp', '2026-02-15T00:00:00.000Z')
    await app.call('POST', integrationsOf(botId, '/rest-api'), { body: { webhook_url: 'https://example.com/' } })
    expect(await app.services.integrations.listMcpIntegrationIds(botId)).toEqual([earlier, later])
    expect(await app.services.integrations.listMcpIntegrationIds('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toEqual([])
  })
})

describe('a widget key collision', () => {
  const app = testApp()
  afterAll(() => app.close())
  /** The app's database behind the seam, written through a batcher of its own. */
  const seam = () => {
    const stores = sqliteStores(app.db)
    return { stores, units: sqliteUnits(writeBatcher(app.db, () => {}), stores) }
  }

  test('is retried with a fresh key rather than failing the create', async () => {
    const botA = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'A' } })).body.id
    const botB = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'B' } })).body.id
    const workspaceId = app.db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?').get(botA)!.workspace_id
    const keys = ['wk_samesamesamesamesamesame', 'wk_samesamesamesamesamesame', 'wk_differentdifferentdiff']
    const service = integrationService({
      ...seam(),
      now: systemClock,
      events: eventBus(),
      ownsChatbot: async () => true,
      publicUrl: 'http://parley.test',
      outbound: outboundUrlPolicy([]),
      newWidgetKey: () => keys.shift() ?? 'wk_exhaustedexhaustedexha',
    })
    expect((await service.web.create(workspaceId, botA, { name: 'A' })).config.widget_key).toBe('wk_samesamesamesamesamesame')
    expect((await service.web.create(workspaceId, botB, { name: 'B' })).config.widget_key).toBe('wk_differentdifferentdiff')
  })

  test('gives up with an error after three collisions instead of looping', async () => {
    const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'C' } })).body.id
    const workspaceId = app.db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?').get(bot)!.workspace_id
    const service = integrationService({
      ...seam(),
      now: systemClock,
      events: eventBus(),
      ownsChatbot: async () => true,
      publicUrl: 'http://parley.test',
      outbound: outboundUrlPolicy([]),
      newWidgetKey: () => 'wk_samesamesamesamesamesame',
    })
    await expect(service.web.create(workspaceId, bot, { name: 'C' })).rejects.toThrow('no unique public key after 3 attempts')
  })
})
