import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type RunningMcpServer, streamableServer } from './support/mcp-servers.ts'
import { type McpApp, mcpApp } from './support/mcp-app.ts'

/** Polls until `condition` holds, or fails after 3 s. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !condition(); i++) await Bun.sleep(20)
  expect(condition()).toBe(true)
}

describe('the connection manager', () => {
  let app: McpApp
  let server: RunningMcpServer
  let other: RunningMcpServer
  beforeAll(async () => {
    app = mcpApp({ idleMs: 300, maxConnections: 3 })
    server = await streamableServer()
    other = await streamableServer()
  })
  afterAll(async () => {
    await app.close()
    await server.stop()
    await other.stop()
  })
  const manager = () => app.services.mcp.manager

  test('opens one connection on first use and reuses it', async () => {
    const id = await app.integration({ url: server.url })
    expect(manager().has(id)).toBe(false)
    const before = server.counters.initializations
    for (let i = 0; i < 5; i++) expect((await app.callTool(id, 'echo', { text: `call ${i}` })).status).toBe(200)
    expect(server.counters.initializations).toBe(before + 1)
    expect(manager().has(id)).toBe(true)
  })

  test('concurrent first calls share one connection', async () => {
    const id = await app.integration({ url: server.url })
    const before = { ...server.counters }
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => app.callTool(id, 'echo', { text: `parallel ${i}` })))
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200))
    expect(server.counters.initializations).toBe(before.initializations + 1)
    // The tool list they all needed was listed once.
    expect(server.counters.listCalls).toBe(before.listCalls + 1)
  })

  test('closes a connection unused for the idle time', async () => {
    const id = await app.integration({ url: server.url })
    await app.callTool(id, 'echo', { text: 'once' })
    expect(manager().has(id)).toBe(true)
    await eventually(() => !manager().has(id))
    const before = server.counters.initializations
    expect((await app.callTool(id, 'echo', { text: 'again' })).status).toBe(200)
    expect(server.counters.initializations).toBe(before + 1)
  })

  test('deleting the integration closes its connection at once', async () => {
    const id = await app.integration({ url: server.url })
    await app.callTool(id, 'echo', { text: 'x' })
    expect(manager().has(id)).toBe(true)
    expect((await app.call('DELETE', app.path(id))).status).toBe(204)
    expect(manager().has(id)).toBe(false)
  })

  test('switching it off closes its connection at once and refuses calls with 409', async () => {
    const id = await app.integration({ url: server.url })
    await app.callTool(id, 'echo', { text: 'x' })
    await app.call('PATCH', app.path(id), { body: { is_active: false } })
    expect(manager().has(id)).toBe(false)
    const refused = await app.callTool(id, 'echo', { text: 'x' })
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('integration_inactive')
    expect(manager().has(id)).toBe(false)
  })

  test('a changed url is used from the next call on', async () => {
    const id = await app.integration({ url: server.url })
    await app.callTool(id, 'echo', { text: 'x' })
    const calls = other.counters.toolCalls
    await app.call('PATCH', app.path(id), { body: { url: other.url } })
    expect((await app.callTool(id, 'echo', { text: 'moved' })).status).toBe(200)
    expect(other.counters.toolCalls).toBe(calls + 1)
  })

  test('deleting the chatbot closes the connections of its integrations', async () => {
    const id = await app.integration({ url: server.url })
    await app.callTool(id, 'echo', { text: 'x' })
    expect((await app.call('DELETE', `/api/dev/v1/chatbots/${await app.chatbot()}`)).status).toBe(204)
    expect(manager().has(id)).toBe(false)
  })

  test('holds at most maxConnections, closing the least recently used', async () => {
    const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Many' } })).body.id
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const created = await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { body: { name: `s${i}`, url: server.url } })
      ids.push(created.body.id)
      await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp/${created.body.id}/tools/echo/call`, { body: { arguments: { text: 'x' } } })
      expect(manager().size()).toBeLessThanOrEqual(3)
    }
    expect(ids.map((id) => manager().has(id))).toEqual([false, false, true, true, true])
  })
})
