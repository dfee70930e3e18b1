import { expect, test } from 'bun:test'
import { onBothDatabases } from '../support/both-databases.ts'

const tool = { name: 'echo', title: null, description: null, input_schema: { type: 'object' }, annotations: null }
const at = (day: number) => `2026-01-0${day}T00:00:00.000Z`

onBothDatabases('the tool catalogue store', (database) => {
  test('a listing is kept until the integration is deleted, and read back as the same objects while unchanged', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at(1)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at(1)}')`)
    await exec(`INSERT INTO integrations (id, chatbot_id, type, name, created_at) VALUES ('I', 'B', 'mcp', 'tools', '${at(1)}')`)
    expect(await stores.mcpCatalogues.get('I')).toBeNull()
    await units.unit((tx) => tx.mcpCatalogues.save('I', { tools: [tool], listed_at: at(1) }))
    const first = await stores.mcpCatalogues.get('I')
    expect(first).toEqual({ tools: [tool], listed_at: at(1) })
    expect((await stores.mcpCatalogues.get('I'))?.tools[0]?.input_schema === first?.tools[0]?.input_schema).toBe(true)
    // Another node (or process) listing again is seen: the stored time decides.
    const elsewhere = database().otherNode() ?? database()
    await elsewhere.units.unit((tx) => tx.mcpCatalogues.save('I', { tools: [], listed_at: at(2) }))
    expect(await stores.mcpCatalogues.get('I')).toEqual({ tools: [], listed_at: at(2) })
    await exec(`DELETE FROM integrations WHERE id = 'I'`)
    expect(await stores.mcpCatalogues.get('I')).toBeNull()
  })

  test('saving for a deleted integration stores nothing, and the unit (with what else it wrote) commits', async () => {
    const { stores, units } = database()
    await units.unit(async (tx) => {
      await tx.mcpCatalogues.save('I', { tools: [tool], listed_at: at(3) })
      await tx.instance.set('written beside it', 'yes')
    })
    expect(await stores.mcpCatalogues.get('I')).toBeNull()
    expect(await stores.instance.get('written beside it')).toBe('yes')
  })
})
