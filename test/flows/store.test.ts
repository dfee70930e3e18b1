import { expect, test } from 'bun:test'
import type { FlowRecord } from '../../server/flows/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = (minute: number) => `2026-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`
const flow = (id: string, chatbot: string, minute: number, extra: Partial<FlowRecord> = {}): FlowRecord => ({
  id,
  chatbot_id: chatbot,
  name: `flow ${id}`,
  type: 'conversation',
  status: 'draft',
  created_at: at(minute),
  updated_at: null,
  published_at: null,
  published_version: null,
  definition: `{"name":"${id}"}`,
  ...extra,
})

onBothDatabases('the flow store', (database) => {
  test('keeps flows per chatbot: read whole, listed newest first (the larger id first on a tie), counted', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at(0)}'), ('W2', 'w2', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at(0)}'), ('B2', 'W', 'b2', '${at(0)}'), ('C', 'W2', 'c', '${at(0)}')`)
    expect(await stores.flows.chatbotExists('W', 'B')).toBe(true)
    expect(await stores.flows.chatbotExists('W2', 'B')).toBe(false)
    await units.unit(async (tx) => {
      await tx.flows.insert(flow('Fa', 'B', 1))
      await tx.flows.insert(flow('FB', 'B', 2))
      await tx.flows.insert(flow('Fb', 'B', 2, { type: 'meta' }))
      await tx.flows.insert(flow('Fother', 'B2', 3))
    })
    expect(await stores.flows.get('B', 'Fa')).toEqual({ ...flow('Fa', 'B', 1), has_unpublished_changes: 0 })
    expect(await stores.flows.get('B2', 'Fa')).toBeUndefined()
    const page = await stores.flows.list('B', { limit: 2, offset: 0 })
    expect(page).toEqual({
      items: [
        { id: 'Fb', chatbot_id: 'B', name: 'flow Fb', type: 'meta', status: 'draft', created_at: at(2) },
        { id: 'FB', chatbot_id: 'B', name: 'flow FB', type: 'conversation', status: 'draft', created_at: at(2) },
      ],
      total: 3,
    })
    expect((await stores.flows.list('B', { limit: 2, offset: 2 })).items.map((row) => row.id)).toEqual(['Fa'])
    expect(await stores.flows.kind('B', 'Fb')).toBe('meta')
    expect(await stores.flows.kind('B2', 'Fb')).toBeUndefined()
    await units.unit((tx) => tx.flows.update('B', 'Fa', { name: 'renamed', definition: '{"v":2}', updated_at: at(5) }))
    await units.unit((tx) => tx.flows.update('B2', 'FB', { name: 'not through another chatbot', definition: '{}', updated_at: at(5) }))
    expect(await stores.flows.get('B', 'Fa')).toMatchObject({ name: 'renamed', definition: '{"v":2}', updated_at: at(5) })
    expect(await stores.flows.get('B', 'FB')).toMatchObject({ name: 'flow FB', updated_at: null })
  })

  test('publishing numbers versions from 1, makes the last one live, and tells the working copy from it', async () => {
    const { stores, units } = database()
    expect(await stores.flows.liveSnapshot('Fa')).toBeUndefined()
    expect(await units.unit((tx) => tx.flows.publish('Fa', '{"v":2}', at(10)))).toBe(1)
    expect(await stores.flows.get('B', 'Fa')).toMatchObject({ status: 'published', published_version: 1, published_at: at(10), has_unpublished_changes: 0 })
    await units.unit((tx) => tx.flows.update('B', 'Fa', { name: 'renamed', definition: '{"v":3}', updated_at: at(11) }))
    expect((await stores.flows.get('B', 'Fa'))?.has_unpublished_changes).toBe(1)
    expect(await units.unit((tx) => tx.flows.publish('Fa', '{"v":3}', at(12)))).toBe(2)
    expect(await stores.flows.versions('Fa')).toEqual([
      { version: 2, published_at: at(12) },
      { version: 1, published_at: at(10) },
    ])
    const snapshot = { flow_id: 'Fa', chatbot_id: 'B', type: 'conversation' as const, version: 2, published_at: at(12), definition: '{"v":3}' }
    expect(await stores.flows.liveSnapshot('Fa')).toEqual(snapshot)
    expect(await stores.flows.versionSnapshot('Fa', 1)).toEqual({ ...snapshot, version: 1, published_at: at(10), definition: '{"v":2}' })
    expect(await stores.flows.versionSnapshot('Fa', 3)).toBeUndefined()
    expect(await stores.flows.summaries('B')).toEqual(
      expect.arrayContaining([
        { id: 'Fa', type: 'conversation', published: true },
        { id: 'FB', type: 'conversation', published: false },
        { id: 'Fb', type: 'meta', published: false },
      ]),
    )
  })

  test('a new conversation starts in the entry flow when it is live, else in the conversation flow published last, whatever the clock said', async () => {
    const { exec, stores, units } = database()
    expect(await stores.flows.entryVersion('B')).toEqual({ flow_id: 'Fa', version: 2 })
    // Published later, stamped earlier: the order of publishing decides.
    await units.unit((tx) => tx.flows.publish('FB', '{}', at(1)))
    await units.unit((tx) => tx.flows.publish('Fb', '{}', at(59)))
    expect(await stores.flows.entryVersion('B')).toEqual({ flow_id: 'FB', version: 1 })
    await exec(`UPDATE chatbots SET entry_flow_id = 'Fa' WHERE id = 'B'`)
    expect(await stores.flows.entryVersion('B')).toEqual({ flow_id: 'Fa', version: 2 })
    // A meta flow is never an entry.
    await exec(`UPDATE chatbots SET entry_flow_id = 'Fb' WHERE id = 'B'`)
    expect(await stores.flows.entryVersion('B')).toEqual({ flow_id: 'FB', version: 1 })
    expect(await stores.flows.entryVersion('B2')).toBeUndefined()
  })

  test('removing a flow takes its versions and unsets it as the entry flow; a flow gone meanwhile is published nowhere', async () => {
    const { exec, query, stores, units } = database()
    await exec(`UPDATE chatbots SET entry_flow_id = 'Fa' WHERE id = 'B'`)
    expect(await units.unit((tx) => tx.flows.remove('B2', 'Fa', at(20)))).toBe(false)
    expect(await units.unit((tx) => tx.flows.remove('B', 'Fa', at(20)))).toBe(true)
    expect(await query<{ entry_flow_id: string | null; updated_at: string }>(`SELECT entry_flow_id, updated_at FROM chatbots WHERE id = 'B'`)).toEqual([
      { entry_flow_id: null, updated_at: at(20) },
    ])
    expect(await stores.flows.versions('Fa')).toEqual([])
    expect(await units.unit((tx) => tx.flows.remove('B', 'Fa', at(21)))).toBe(false)
    // Nothing written, no statement failed: the unit's other writes are stored.
    const published = await units.unit(async (tx) => {
      const version = await tx.flows.publish('Fa', '{}', at(22))
      await tx.instance.set('written beside it', 'yes')
      return version
    })
    expect(published).toBeNull()
    expect(await stores.instance.get('written beside it')).toBe('yes')
    expect(await stores.flows.versions('Fa')).toEqual([])
  })

  test('publishes of one flow at once, from two nodes, number every version once', async () => {
    const { stores, units } = database()
    const nodes = [{ units }, database().otherNode() ?? { units }]
    const numbers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => (nodes[i % 2] as { units: typeof units }).units.unit((tx) => tx.flows.publish('FB', `{"n":${i}}`, at(30)))),
    )
    expect(numbers.toSorted((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 24 }, (_, i) => i + 2))
    expect((await stores.flows.versions('FB')).length).toBe(25)
    expect((await stores.flows.get('B', 'FB'))?.published_version).toBe(25)
  })

  test('a unit that fails stores none of its flow', async () => {
    const { stores, units } = database()
    const failing = units.unit(async (tx) => {
      await tx.flows.insert(flow('Fgone', 'B', 40))
      await tx.flows.insert(flow('Fgone', 'B', 40))
    })
    await expect(failing).rejects.toThrow()
    expect(await stores.flows.get('B', 'Fgone')).toBeUndefined()
  })
})
