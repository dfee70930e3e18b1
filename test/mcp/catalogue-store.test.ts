import { afterAll, expect, test } from 'bun:test'
import { catalogueStore } from '../../server/mcp/catalogue-store.ts'
import { testApp } from '../support/test-app.ts'

const app = testApp()
afterAll(() => app.close())

test('a listing is kept until the integration is deleted, and read back as the same objects while unchanged', async () => {
  const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'b' } })).body.id
  const id = (await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { body: { name: 'tools', url: 'https://tools.example.com/mcp' } })).body.id
  const store = catalogueStore(app.db)
  const tool = { name: 'echo', title: null, description: null, input_schema: { type: 'object' }, annotations: null }
  store.save(id, { tools: [tool], listed_at: '2026-01-01T00:00:00.000Z' })
  const first = store.get(id)
  expect(first).toEqual({ tools: [tool], listed_at: '2026-01-01T00:00:00.000Z' })
  expect(store.get(id)?.tools[0]?.input_schema === first?.tools[0]?.input_schema).toBe(true)
  // Another process (or store) listing again is seen: the stored time decides.
  catalogueStore(app.db).save(id, { tools: [], listed_at: '2026-01-02T00:00:00.000Z' })
  expect(store.get(id)).toEqual({ tools: [], listed_at: '2026-01-02T00:00:00.000Z' })
  expect((await app.call('DELETE', `/api/dev/v1/chatbots/${bot}/integrations/mcp/${id}`)).status).toBe(204)
  expect(store.get(id)).toBeNull()
  // Saving for a deleted integration stores nothing and does not throw.
  store.save(id, { tools: [], listed_at: '2026-01-03T00:00:00.000Z' })
  expect(store.get(id)).toBeNull()
})
