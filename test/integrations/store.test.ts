import { expect, test } from 'bun:test'
import type { IntegrationRow } from '../../server/integrations/model.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = (day: number) => `2026-05-${String(day).padStart(2, '0')}T10:00:00.000Z`
const row = (id: string, chatbot: string, type: IntegrationRow['type'], day: number, more: Partial<IntegrationRow> = {}): IntegrationRow => ({
  id,
  chatbot_id: chatbot,
  workspace_id: chatbot === 'B2' ? 'W2' : 'W1',
  type,
  name: `${type} ${id}`,
  is_active: true,
  config: { n: day },
  secrets: { s: `secret ${id}` },
  public_key: null,
  created_at: at(day),
  updated_at: null,
  ...more,
})

onBothDatabases('the integration store', (database) => {
  test('keeps rows and reads them back scoped by workspace, by id, key, type and chatbot', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W1', 'one', '${at(1)}'), ('W2', 'two', '${at(1)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B1', 'W1', 'b1', '${at(1)}'), ('B2', 'W2', 'b2', '${at(1)}')`)
    const web = row('I1', 'B1', 'web', 1, { public_key: 'wk_one', is_active: false, config: { allowed_domains: ['a.test'], nested: { x: [1, 'é'] } } })
    const results = await units.unit(async (tx) => [
      await tx.integrations.insert(web),
      await tx.integrations.insert(row('I2', 'B1', 'rest-api', 2)),
      await tx.integrations.insert(row('I3', 'B1', 'mcp', 3)),
      await tx.integrations.insert(row('I4', 'B1', 'mcp', 2)),
      await tx.integrations.insert(row('I5', 'B2', 'web', 1, { public_key: 'wk_two' })),
    ])
    expect(results).toEqual(['inserted', 'inserted', 'inserted', 'inserted', 'inserted'])
    const { integrations } = stores
    expect(await integrations.get('W1', 'B1', 'I1')).toEqual(web)
    expect(await integrations.get('W2', 'B1', 'I1')).toBeNull()
    expect(await integrations.getTyped('W1', 'B1', 'rest-api')).toMatchObject({ id: 'I2', is_active: true, secrets: { s: 'secret I2' } })
    expect(await integrations.getTyped('W2', 'B1', 'rest-api')).toBeNull()
    expect(await integrations.getById('I5')).toMatchObject({ workspace_id: 'W2', chatbot_id: 'B2' })
    expect(await integrations.getById('nope')).toBeNull()
    expect(await integrations.getByPublicKey('wk_one')).toEqual(web)
    expect(await integrations.getOfChatbot('B2', 'web')).toMatchObject({ id: 'I5' })
    expect(await integrations.hasType('B1', 'web')).toBe(true)
    expect(await integrations.hasType('B2', 'rest-api')).toBe(false)
    // mcp is never "the" integration of its type: there may be many.
    expect(await integrations.hasType('B1', 'mcp')).toBe(false)
    expect(await integrations.idsOfType('B1', 'mcp')).toEqual(['I4', 'I3'])
    expect(await integrations.mcpNamed('B1', 'MCP i3')).toBe('I3')
    expect(await integrations.mcpNamed('B2', 'mcp I3')).toBeNull()
  })

  test('lists newest first, a page at a time, with the total, narrowed to a type when asked', async () => {
    const { integrations } = database().stores
    const all = await integrations.list('W1', 'B1', { limit: 2, offset: 0 })
    expect(all).toEqual({
      items: [
        { id: 'I3', chatbot_id: 'B1', type: 'mcp', is_active: true, created_at: at(3) },
        { id: 'I4', chatbot_id: 'B1', type: 'mcp', is_active: true, created_at: at(2) },
      ],
      total: 4,
    })
    expect((await integrations.list('W1', 'B1', { limit: 10, offset: 2 })).items.map((item) => item.id)).toEqual(['I2', 'I1'])
    expect(await integrations.list('W1', 'B1', { limit: 10, offset: 0, type: 'web' })).toMatchObject({ items: [{ id: 'I1', is_active: false }], total: 1 })
    expect(await integrations.list('W2', 'B1', { limit: 10, offset: 0 })).toEqual({ items: [], total: 0 })
    const mcp = await integrations.listOfType('W1', 'B1', 'mcp', { limit: 1, offset: 1 })
    expect(mcp).toMatchObject({ items: [{ id: 'I4', config: { n: 2 } }], total: 2 })
  })

  test('answers what the unique indexes refuse, and the unit goes on to commit what else it wrote', async () => {
    const { stores, units } = database()
    const refused = await units.unit(async (tx) => {
      const answers = [
        await tx.integrations.insert(row('R1', 'B1', 'web', 4, { public_key: 'wk_new' })),
        await tx.integrations.insert(row('R2', 'B2', 'rest-api', 4, { public_key: 'wk_one' })),
        await tx.integrations.insert(row('R3', 'B1', 'mcp', 4, { name: 'MCP I4' })),
        await tx.integrations.insert(row('R4', 'B2', 'mcp', 4, { name: 'mcp i4' })),
      ]
      await tx.instance.set('written beside the refusals', 'yes')
      return answers
    })
    expect(refused).toEqual(['type_exists', 'public_key_taken', 'name_taken', 'inserted'])
    expect(await stores.integrations.getById('R1')).toBeNull()
    expect(await stores.integrations.getById('R4')).toMatchObject({ name: 'mcp i4' })
    expect(await stores.instance.get('written beside the refusals')).toBe('yes')
  })

  test('an unknown chatbot or type is refused by the database, and nothing of the unit is kept', async () => {
    const { stores, units } = database()
    await expect(units.unit((tx) => tx.integrations.insert(row('F1', 'B9', 'mcp', 5)))).rejects.toThrow()
    await expect(units.unit((tx) => tx.integrations.insert(row('F2', 'B1', 'sms' as 'mcp', 5)))).rejects.toThrow()
    expect(await stores.integrations.getById('F1')).toBeNull()
  })

  test('updates a row whole; an mcp name another holds is refused without failing the unit', async () => {
    const { stores, units } = database()
    const current = (await stores.integrations.getById('I3')) as IntegrationRow
    const answers = await units.unit(async (tx) => [
      await tx.integrations.update({ ...current, name: 'mcp i4' }),
      await tx.integrations.update({ ...current, name: 'Renamed', is_active: false, config: { n: 9 }, secrets: {}, updated_at: at(9) }),
      // Its own name in another case is no conflict.
      await tx.integrations.update({ ...(await tx.integrations.getById('I4') as IntegrationRow), name: 'MCP I4' }),
    ])
    expect(answers).toEqual(['name_taken', 'updated', 'updated'])
    expect(await stores.integrations.getById('I3')).toMatchObject({ name: 'Renamed', is_active: false, config: { n: 9 }, secrets: {}, updated_at: at(9) })
    expect(await stores.integrations.mcpNamed('B1', 'mcp i4')).toBe('I4')
  })

  test("records a chatapp handshake in its config, leaving the rest and updated_at as they were", async () => {
    const { stores, units } = database()
    await units.unit((tx) => tx.integrations.insert(row('C1', 'B2', 'chatapp', 6, { config: { phone_number_id: '1065', deep: { keep: true } } })))
    expect(await units.unit((tx) => tx.integrations.setChatappHandshake('C1', { verified_at: at(7) }))).toBe(true)
    expect(await units.unit((tx) => tx.integrations.setChatappHandshake('C1', { verified_at: at(8) }))).toBe(true)
    // Only a chatapp integration has one.
    expect(await units.unit((tx) => tx.integrations.setChatappHandshake('I5', { verified_at: at(7) }))).toBe(false)
    expect(await stores.integrations.getById('C1')).toMatchObject({ config: { phone_number_id: '1065', deep: { keep: true }, handshake: { verified_at: at(8) } }, updated_at: null })
    expect((await stores.integrations.getById('I5'))?.config).not.toHaveProperty('handshake')
  })

  test('removes a row of the workspace only', async () => {
    const { stores, units } = database()
    expect(await units.unit((tx) => tx.integrations.remove('W2', 'B1', 'I2'))).toBe(false)
    expect(await units.unit((tx) => tx.integrations.remove('W1', 'B2', 'I5'))).toBe(false)
    expect(await units.unit((tx) => tx.integrations.remove('W1', 'B1', 'I2'))).toBe(true)
    expect(await stores.integrations.getById('I2')).toBeNull()
    expect(await stores.integrations.getById('I5')).not.toBeNull()
  })
})
