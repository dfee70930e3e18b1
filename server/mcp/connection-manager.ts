import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { IntegrationRow } from '../integrations/model.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { McpConnection } from './connect.ts'

export interface ConnectionManagerOptions {
  /** Opens a connection for the integration as it is stored now. */
  open: (row: IntegrationRow, hooks: { onToolsChanged: () => void; onClosed: () => void }) => Promise<McpConnection>
  events: EventBus
  /** A connection unused this long is closed. */
  idleMs: number
  /** The most connections held at once; beyond it the least recently used one is closed. */
  maxConnections: number
  /** Milliseconds, for idleness; tests move it. */
  nowMs?: () => number
  /** The server said its tools changed. */
  onToolsChanged?: (integrationId: string) => void
}

interface Entry {
  chatbotId: string
  /** The stored row's version the connection was opened with: a changed row gets a new connection. */
  version: string
  connection: Promise<McpConnection>
  lastUsed: number
  /** Requests running on it: an idle sweep never closes a connection in use. */
  inUse: number
}

export type ConnectionManager = ReturnType<typeof connectionManager>

/**
 * One MCP client per active integration, opened on first use and reused. A session the server
 * has forgotten (HTTP 404 on its session id, a restarted server, a closed stream) is opened
 * anew and the request retried once. Idle connections close; a deleted or switched-off
 * integration's connection closes at once; at most `maxConnections` are held.
 */
export function connectionManager({ open, events, idleMs, maxConnections, nowMs = Date.now, onToolsChanged }: ConnectionManagerOptions) {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, Entry>()

  const versionOf = (row: IntegrationRow) => row.updated_at ?? row.created_at

  function drop(id: string, entry?: Entry): void {
    const current = entries.get(id)
    if (!current || (entry && current !== entry)) return
    entries.delete(id)
    current.connection.then((connection) => connection.close()).catch(() => {})
  }

  function entryFor(row: IntegrationRow): Entry {
    const existing = entries.get(row.id)
    if (existing && existing.version === versionOf(row)) {
      entries.delete(row.id)
      entries.set(row.id, existing)
      return existing
    }
    if (existing) drop(row.id)
    const entry: Entry = { chatbotId: row.chatbot_id, version: versionOf(row), lastUsed: nowMs(), inUse: 0, connection: undefined as never }
    entry.connection = open(row, {
      onToolsChanged: () => onToolsChanged?.(row.id),
      onClosed: () => drop(row.id, entry),
    })
    // A failed connect is forgotten, so that the next request tries again.
    entry.connection.catch(() => drop(row.id, entry))
    entries.set(row.id, entry)
    while (entries.size > maxConnections) {
      const oldest = [...entries].find(([, candidate]) => candidate.inUse === 0)
      if (!oldest) break
      drop(oldest[0])
    }
    return entry
  }

  async function attempt<T>(row: IntegrationRow, work: (connection: McpConnection) => Promise<T>): Promise<T> {
    const entry = entryFor(row)
    entry.inUse++
    try {
      return await work(await entry.connection)
    } catch (error) {
      if (sessionGone(error)) drop(row.id, entry)
      throw error
    } finally {
      entry.inUse--
      entry.lastUsed = nowMs()
    }
  }

  const sweep = setInterval(() => {
    const now = nowMs()
    for (const [id, entry] of entries) if (entry.inUse === 0 && now - entry.lastUsed >= idleMs) drop(id, entry)
  }, Math.max(50, Math.min(idleMs / 2, 60_000)))
  sweep.unref()

  const close = (integrationId: string) => drop(integrationId)
  const stopListening = [
    events.on('integration.removed', ({ integrationId, type }) => type === 'mcp' && close(integrationId)),
    events.on('integration.changed', ({ integrationId, type }) => type === 'mcp' && close(integrationId)),
    // The chatbot's integrations went with it (a cascade, without events of their own).
    events.on('chatbot.removed', ({ chatbotId }) => {
      for (const [id, entry] of entries) if (entry.chatbotId === chatbotId) drop(id, entry)
    }),
  ]

  return {
    /** Runs `work` on the integration's connection; a forgotten session is re-opened and `work` retried once. */
    async use<T>(row: IntegrationRow, work: (connection: McpConnection) => Promise<T>): Promise<T> {
      try {
        return await attempt(row, work)
      } catch (error) {
        if (!sessionGone(error)) throw error
        return attempt(row, work)
      }
    },
    /** Takes over a connection opened elsewhere (by a connection test) as the integration's. */
    adopt(row: IntegrationRow, connection: McpConnection): void {
      drop(row.id)
      entries.set(row.id, { chatbotId: row.chatbot_id, version: versionOf(row), connection: Promise.resolve(connection), lastUsed: nowMs(), inUse: 0 })
    },
    close,
    /** How many connections are held (open or opening). */
    size: () => entries.size,
    has: (integrationId: string) => entries.has(integrationId),
    async closeAll(): Promise<void> {
      clearInterval(sweep)
      for (const stop of stopListening) stop()
      const all = [...entries.values()]
      entries.clear()
      await Promise.all(all.map((entry) => entry.connection.then((connection) => connection.close()).catch(() => {})))
    },
  }
}

/** The server no longer knows the session: re-initializing is safe, since it did not run the request. */
export function sessionGone(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404
  const message = error instanceof Error ? error.message : ''
  // The legacy SSE transport's message endpoint forgot the session, or the connection had
  // ended before the request went out. ("Connection closed" during a request is not retried:
  // the server may have run it.)
  return /\(HTTP 404\)|^Not connected$/i.test(message)
}
