import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { newCounters, type ServerCounters, type ToolServerOptions, toolServer } from './tool-server.ts'

export interface RunningMcpServer {
  /** The MCP endpoint, on 127.0.0.1. */
  url: string
  port: number
  counters: ServerCounters
  /** Tells every open session that the tool list changed. */
  announceToolsChanged(): Promise<void>
  /** Stops and starts again on the same port: every session is forgotten, as after a real restart. */
  restart(): Promise<void>
  stop(): Promise<void>
}

export interface StreamableOptions extends ToolServerOptions {
  /** false: a new server and transport per request, no session ids. */
  stateful?: boolean
  /** Every request must carry these headers exactly (a bearer token is `authorization: Bearer ...`). */
  requireHeaders?: Record<string, string>
  /** OAuth: the authorization server its protected-resource metadata names, and which bearer tokens it takes. */
  oauth?: { authorizationServer: string; acceptsToken: (token: string) => boolean; scopes?: string[] }
  port?: number
}

/** Streamable HTTP with the SDK's `WebStandardStreamableHTTPServerTransport` inside Bun.serve. */
export async function streamableServer(options: StreamableOptions = {}): Promise<RunningMcpServer> {
  const counters = newCounters()
  const stateful = options.stateful ?? true
  let sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: Server }>()

  async function handle(request: Request, origin: string): Promise<Response> {
    const url = new URL(request.url)
    counters.lastHeaders = Object.fromEntries([...request.headers].map(([name, value]) => [name.toLowerCase(), value]))
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp' || url.pathname === '/.well-known/oauth-protected-resource') {
      const authorizationServer = options.oauth?.authorizationServer ?? `${origin}/auth`
      return Response.json({ resource: `${origin}/mcp`, authorization_servers: [authorizationServer], scopes_supported: options.oauth?.scopes ?? ['tools:read'] })
    }
    if (url.pathname !== '/mcp') return new Response('not here', { status: 404 })
    const bearer = request.headers.get('authorization')?.match(/^Bearer (.+)$/)?.[1]
    if (options.oauth && !(bearer && options.oauth.acceptsToken(bearer))) {
      counters.refusedTokens++
      return new Response(JSON.stringify({ error: 'invalid_token' }), {
        status: 401,
        headers: {
          'content-type': 'application/json',
          'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      })
    }
    for (const [name, value] of Object.entries(options.requireHeaders ?? {})) {
      if (request.headers.get(name) !== value) {
        return new Response(JSON.stringify({ error: 'invalid_token' }), {
          status: 401,
          headers: {
            'content-type': 'application/json',
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          },
        })
      }
    }
    if (!stateful) {
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      const server = toolServer(counters, options)
      await server.connect(transport)
      return transport.handleRequest(request)
    }
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId) {
      const session = sessions.get(sessionId)
      if (!session) return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 })
      return session.transport.handleRequest(request)
    }
    const server = toolServer(counters, options)
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server })
      },
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await server.connect(transport)
    return transport.handleRequest(request)
  }

  let bun = listen(options.port ?? 0)
  function listen(port: number): ReturnType<typeof Bun.serve> {
    const started: ReturnType<typeof Bun.serve> = Bun.serve({
      hostname: '127.0.0.1',
      port,
      idleTimeout: 0,
      fetch: (request: Request): Promise<Response> => handle(request, `http://127.0.0.1:${started.port}`),
    })
    return started
  }
  const port = bun.port as number

  const closeSessions = async () => {
    const open = [...sessions.values()]
    sessions = new Map()
    await Promise.all(open.map(({ server }) => server.close().catch(() => {})))
  }

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    counters,
    async announceToolsChanged() {
      await Promise.all([...sessions.values()].map(({ server }) => server.sendToolListChanged()))
    },
    async restart() {
      await closeSessions()
      await bun.stop(true)
      bun = listen(port)
    },
    async stop() {
      await closeSessions()
      await bun.stop(true)
    },
  }
}

/** The legacy HTTP+SSE transport (GET /sse, POST /messages?sessionId=...), on node:http as the SDK expects. */
export async function sseServer(options: ToolServerOptions = {}): Promise<RunningMcpServer> {
  const counters = newCounters()
  const sessions = new Map<string, { transport: SSEServerTransport; server: Server }>()
  const http: NodeServer = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    counters.lastHeaders = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', response)
      const server = toolServer(counters, options)
      sessions.set(transport.sessionId, { transport, server })
      transport.onclose = () => sessions.delete(transport.sessionId)
      await server.connect(transport)
      return
    }
    if (request.method === 'POST' && url.pathname === '/messages') {
      const session = sessions.get(url.searchParams.get('sessionId') ?? '')
      if (!session) {
        response.writeHead(404).end('Session not found')
        return
      }
      await session.transport.handlePostMessage(request, response)
      return
    }
    // An old server knows nothing of streamable HTTP: a POST to its SSE path is refused.
    response.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed')
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const port = (http.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/sse`,
    port,
    counters,
    async announceToolsChanged() {
      await Promise.all([...sessions.values()].map(({ server }) => server.sendToolListChanged()))
    },
    async restart() {
      for (const { server } of sessions.values()) await server.close().catch(() => {})
      sessions.clear()
    },
    async stop() {
      for (const { server } of sessions.values()) await server.close().catch(() => {})
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

/** A web server that is not an MCP server: every path answers a plain HTML page. */
export function htmlServer() {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => new Response('<!doctype html><title>Shop</title><h1>Welcome</h1>', { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  })
  return { url: `http://127.0.0.1:${server.port}/mcp`, stop: () => server.stop(true) }
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
  const port = probe.port as number
  await probe.stop(true)
  return port
}

/** Accepts connections and never answers (a hung server). */
export function silentServer() {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  return { url: `http://127.0.0.1:${server.port}/mcp`, stop: () => server.stop(true) }
}
