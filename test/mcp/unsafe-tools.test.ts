import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { type RunningMcpServer, streamableServer } from './support/mcp-servers.ts'
import { type McpApp, mcpApp } from './support/mcp-app.ts'

const object = { type: 'object' as const, properties: {} }
/** A shop's tools as a server describes them (MCP tool annotations; destructiveHint defaults to true). */
const SHOP_TOOLS: Tool[] = [
  { name: 'find_order', inputSchema: object, annotations: { readOnlyHint: true } },
  { name: 'add_note', inputSchema: object, annotations: { readOnlyHint: false, destructiveHint: false } },
  { name: 'cancel_order', inputSchema: object, annotations: { destructiveHint: true } },
  { name: 'refund', inputSchema: object, annotations: { title: 'Refund an order' } },
  { name: 'mystery', inputSchema: object },
]

describe("tools a server does not mark as safe start denied (allow: null)", () => {
  let app: McpApp
  let server: RunningMcpServer
  let id: string

  beforeAll(async () => {
    app = mcpApp()
    server = await streamableServer({ tools: SHOP_TOOLS, answer: (name) => ({ content: [{ type: 'text', text: `${name} done` }] }) })
    id = await app.integration({ url: server.url })
  })
  afterAll(async () => {
    await app.close()
    await server.stop()
  })

  const verdicts = (tools: { name: string; allowed: boolean; denied_by: string | null }[]) => Object.fromEntries(tools.map((tool) => [tool.name, [tool.allowed, tool.denied_by]]))

  test('read-only and non-destructive tools are offered; destructive and unannotated ones are denied, and say why', async () => {
    const tested = await app.test(id)
    expect(tested.body.ok).toBe(true)
    const expected = {
      find_order: [true, null],
      add_note: [true, null],
      cancel_order: [false, 'annotations'],
      refund: [false, 'annotations'],
      mystery: [false, 'annotations'],
    }
    expect(verdicts(tested.body.tools)).toEqual(expected)
    expect(verdicts((await app.tools(id)).body.tools)).toEqual(expected)
  })

  test('calling a denied one is refused before the server is asked', async () => {
    const before = server.counters.toolCalls
    const refused = await app.callTool(id, 'mystery', {})
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('tool_not_allowed')
    expect(refused.body.detail).toContain('annotations')
    expect(server.counters.toolCalls).toBe(before)
    expect((await app.callTool(id, 'find_order', {})).body.content).toEqual([{ type: 'text', text: 'find_order done' }])
  })

  test('named in allow, a destructive tool is allowed; deny still wins', async () => {
    const patched = await app.call('PATCH', app.path(id), { body: { tools: { allow: ['find_order', 'cancel_order', 'mystery'], deny: ['mystery'] } } })
    expect(patched.status).toBe(200)
    expect(verdicts((await app.tools(id)).body.tools)).toEqual({
      find_order: [true, null],
      add_note: [false, 'allow'],
      cancel_order: [true, null],
      refund: [false, 'allow'],
      mystery: [false, 'deny'],
    })
    expect((await app.callTool(id, 'cancel_order', {})).body.content).toEqual([{ type: 'text', text: 'cancel_order done' }])
  })
})
