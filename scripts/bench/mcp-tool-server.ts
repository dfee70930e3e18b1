#!/usr/bin/env bun
/**
 * The MCP server of bench:mcp: streamable HTTP, stateful, built with the official SDK, one
 * `echo` tool. Its own process, so that its CPU and memory are not counted as Parley's.
 * Prints "listening PORT". Its own time per `echo` text (a call's arrival to its answer,
 * summed) is at GET /own-times, for bench:agent to subtract only what the tool itself took.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>()
const ownTimes = new Map<string, number>()

function newServer() {
  const server = new Server({ name: 'bench-tools', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'echo', description: 'Says the text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, annotations: { readOnlyHint: true } }],
  }))
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: String(request.params.arguments?.text) }] }))
  return server
}

const bun = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  async fetch(request) {
    if (request.method === 'GET' && new URL(request.url).pathname === '/own-times') return Response.json(Object.fromEntries(ownTimes))
    const id = request.headers.get('mcp-session-id')
    if (id) {
      const transport = sessions.get(id)
      if (!transport) return new Response('unknown session', { status: 404 })
      const arrived = performance.now()
      const body = request.method === 'POST' ? (request.clone().json().catch(() => null) as Promise<{ method?: string; params?: { arguments?: { text?: unknown } } } | null>) : null
      const response = await transport.handleRequest(request)
      const own = performance.now() - arrived
      void body?.then((call) => {
        if (call?.method !== 'tools/call') return
        const text = String(call.params?.arguments?.text)
        ownTimes.set(text, (ownTimes.get(text) ?? 0) + own)
      })
      return response
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    })
    await newServer().connect(transport)
    return transport.handleRequest(request)
  },
})
console.log(`listening ${bun.port}`)
