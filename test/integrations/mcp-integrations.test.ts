import { afterAll, expect, test } from 'bun:test'
import { testApp } from '../support/test-app.ts'

const app = testApp()
afterAll(() => app.close())

/** Tool calls read their integration from memory; these are the ways it can change under them. */
test('the row a tool call reads is never stale: a PATCH, a delete through the generic route and a chatbot deletion are seen at once', async () => {
  const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'b' } })).body.id
  const create = async (name: string) =>
    (await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { body: { name, url: 'https://tools.example.com/mcp' } })).body.id as string
  const rows = app.services.integrations.mcp
  const workspace = (await app.services.workspaces.authenticate(app.key)) as string

  const patched = await create('patched')
  expect((await rows.row(workspace, bot, patched)).is_active).toBe(true)
  await app.call('PATCH', `/api/dev/v1/chatbots/${bot}/integrations/mcp/${patched}`, { body: { is_active: false } })
  expect((await rows.row(workspace, bot, patched)).is_active).toBe(false)

  const generic = await create('generic')
  await rows.row(workspace, bot, generic)
  expect((await app.call('DELETE', `/api/dev/v1/chatbots/${bot}/integrations/${generic}`)).status).toBe(204)
  await expect(rows.row(workspace, bot, generic)).rejects.toThrow('not found')

  const survivor = await create('survivor')
  await rows.row(workspace, bot, survivor)
  // Another workspace never gets the row, cached or not.
  const other = (await app.services.workspaces.authenticate(app.otherWorkspaceKey())) as string
  await expect(rows.row(other, bot, survivor)).rejects.toThrow('not found')
  expect((await app.call('DELETE', `/api/dev/v1/chatbots/${bot}`)).status).toBe(204)
  await expect(rows.row(workspace, bot, survivor)).rejects.toThrow('not found')
})
