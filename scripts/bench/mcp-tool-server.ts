#!/usr/bin/env bun
/**
 * The MCP server of bench:mcp: streamable HTTP, stateful, built with the official SDK, one
 * `echo` tool. Its own process, so that its CPU and memory are not counted as Parley's.
 * Prints "listening PORT".
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>()

function newServer() {
  const server = new Server({ name: 'bench-tools', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'echo', description: 'Says the text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }],
  }))
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: String(request.params.arguments?.text) }] }))
  return server
}

const bun = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  async fetch(request) {
    const id = request.headers.get('mcp-session-id')
    if (id) {
      const transport = sessions.get(id)
      return transport ? transport.handleRequest(request) : new Response('unknown session', { status: 404 })
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
