import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ToolListChangedNotificationSchema, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js'
import type { McpTransport } from '../integrations/mcp-model.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { VERSION } from '../version.ts'
import { type ExchangeNote, McpNetworkError, pinnedFetch } from './pinned-fetch.ts'

/** Where and how to reach one server: its settings with the secrets raw (never log this). */
export interface McpEndpoint {
  url: string
  transport: McpTransport
  /** Authorization and custom headers, sent with every request. */
  headers: Record<string, string>
  authProvider?: OAuthClientProvider
  /** Sees every answer of the server (OAuth: a 403 asking for more scope). */
  onAnswer?: (response: Response) => void
}

export interface ConnectOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  /** Connecting and initializing, per transport tried. */
  timeoutMs: number
  ca?: string
  /** The server said its tool list changed (notifications/tools/list_changed). */
  onToolsChanged?: () => void
  /** The connection ended without being closed by Parley (the server went away). */
  onClosed?: () => void
}

/** An initialized MCP session. */
export interface McpConnection {
  client: Client
  transportUsed: 'streamable-http' | 'sse'
  protocolVersion: string | null
  server: { name: string; version: string }
  capabilities: ServerCapabilities
  note: ExchangeNote
  close(): Promise<void>
}

/** Both transports of `auto` failed: the two reasons, for the classifier. */
export class BothTransportsFailed extends Error {
  constructor(
    readonly streamable: unknown,
    readonly sse: unknown,
  ) {
    super('neither streamable HTTP nor the legacy HTTP+SSE transport could connect')
    this.name = 'BothTransportsFailed'
  }
}

/**
 * Connects with the official SDK client and initializes. `auto` tries streamable HTTP first
 * and falls back to the legacy HTTP+SSE transport (with a new Client: one cannot be reused)
 * when the server answers as an old one; not when the address cannot be reached at all or
 * the server refuses the credentials, where SSE would fail the same way.
 */
export async function connectMcp(endpoint: McpEndpoint, options: ConnectOptions): Promise<McpConnection> {
  const note: ExchangeNote = {}
  try {
    return await connectEither(endpoint, options, note)
  } catch (error) {
    if (typeof error === 'object' && error !== null) notes.set(error, note)
    throw error
  }
}

const notes = new WeakMap<object, ExchangeNote>()

/** What the exchanges of a failed connect showed (see ExchangeNote); empty for other errors. */
export function exchangeNoteOf(error: unknown): ExchangeNote {
  return (typeof error === 'object' && error !== null && notes.get(error)) || {}
}

async function connectEither(endpoint: McpEndpoint, options: ConnectOptions, note: ExchangeNote): Promise<McpConnection> {
  if (endpoint.transport !== 'auto') return connectWith(endpoint.transport, endpoint, options, note)
  try {
    return await connectWith('streamable-http', endpoint, options, note)
  } catch (streamable) {
    if (!worthTryingSse(streamable)) throw streamable
    try {
      return await connectWith('sse', endpoint, options, note)
    } catch (sse) {
      throw new BothTransportsFailed(streamable, sse)
    }
  }
}

function worthTryingSse(error: unknown): boolean {
  if (error instanceof McpNetworkError) return false
  if (error instanceof StreamableHTTPError) return error.code !== 401 && error.code !== 403
  return !isTimeout(error)
}

export function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown }).code === -32001
}

async function connectWith(kind: 'streamable-http' | 'sse', endpoint: McpEndpoint, options: ConnectOptions, note: ExchangeNote): Promise<McpConnection> {
  const pinned = pinnedFetch({ policy: options.policy, ca: options.ca, note })
  const onAnswer = endpoint.onAnswer
  const fetch = onAnswer
    ? async (input: string | URL | Request, init?: RequestInit) => {
        const response = await pinned(input, init)
        onAnswer(response)
        return response
      }
    : pinned
  const url = new URL(endpoint.url)
  const requestInit: RequestInit = { headers: { 'user-agent': `Parley/${VERSION}`, ...endpoint.headers } }
  const transport: Transport =
    kind === 'streamable-http'
      ? new StreamableHTTPClientTransport(url, {
          fetch,
          requestInit,
          authProvider: endpoint.authProvider,
          // A lost GET stream is re-opened by the next request; no background retries to a server that is gone.
          reconnectionOptions: { maxReconnectionDelay: 30_000, initialReconnectionDelay: 1000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
        })
      : new SSEClientTransport(url, { fetch, requestInit, authProvider: endpoint.authProvider, eventSourceInit: { fetch } })
  let protocolVersion: string | null = null
  const setVersion = transport.setProtocolVersion?.bind(transport)
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version
    setVersion?.(version)
  }
  // listChanged auto-refresh would fetch one page only; Parley lists every page itself.
  const client = new Client({ name: 'parley', version: VERSION }, { capabilities: {} })
  let closedByParley = false
  client.onclose = () => {
    if (!closedByParley) options.onClosed?.()
  }
  // The SDK reports transport hiccups here as well as by rejecting the request concerned.
  client.onerror = () => {}
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged?.())
  try {
    await client.connect(transport, { timeout: options.timeoutMs })
  } catch (error) {
    closedByParley = true
    await client.close().catch(() => {})
    throw error
  }
  const server = client.getServerVersion()
  return {
    client,
    transportUsed: kind,
    protocolVersion,
    server: { name: server?.name ?? '', version: server?.version ?? '' },
    capabilities: client.getServerCapabilities() ?? {},
    note,
    async close() {
      closedByParley = true
      // A stateful server is told the session ends (DELETE); a server gone already does not hold this up.
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        await Promise.race([transport.terminateSession().catch(() => {}), Bun.sleep(1000)])
      }
      await client.close().catch(() => {})
    },
  }
}
