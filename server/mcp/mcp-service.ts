import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { ApiError, unprocessable } from '../http/api-error.ts'
import { type McpConfig, type McpOAuthState, mcpConfigOf, mcpSecretsOf } from '../integrations/mcp-integration.ts'
import type { McpIntegrations } from '../integrations/mcp-integrations.ts'
import type { IntegrationRow } from '../integrations/model.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import type { Units } from '../db/units.ts'
import type { CatalogueStore } from './catalogue-store.ts'
import { checkArguments } from './check-arguments.ts'
import { classifyFailure, type McpFailure } from './classify-failure.ts'
import { connectMcp, exchangeNoteOf, isTimeout, type McpConnection, type McpEndpoint } from './connect.ts'
import { connectionManager } from './connection-manager.ts'
import { type ContentBlock, cutOutput } from './cut-output.ts'
import type { ConnectionOAuth } from './oauth-provider.ts'
import type { McpTestResult, McpToolList, McpToolResult, ToolView } from './model.ts'
import { type Catalogue, listAllTools, type ToolDenial, toolDenial } from './tool-catalogue.ts'

export interface McpTuning {
  /** Connecting and initializing (default 10 s). */
  connectTimeoutMs?: number
  /** A catalogue older than this is listed again when read (default 10 min). */
  catalogueMaxAgeMs?: number
  /** A tool's output beyond this many characters is cut (default 100,000). */
  outputLimit?: number
  /** An unused connection closes after this long (default 5 min). */
  idleMs?: number
  maxConnections?: number
  /** Extra trusted certificates (tests). */
  ca?: string
}

export interface McpServiceDeps {
  integrations: McpIntegrations
  /** The stored tool listings, read through `stores` and saved in a unit. */
  stores: { mcpCatalogues: CatalogueStore }
  units: Units<{ mcpCatalogues: CatalogueStore }>
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  events: EventBus
  now: Clock
  logger: Logger
  /** OAuth: the provider a connection of an oauth integration authenticates with, and what its record says. */
  oauth?: { providerFor(row: IntegrationRow): ConnectionOAuth | undefined; stateOf(row: IntegrationRow): Promise<McpOAuthState>; wantedScopeOf(row: IntegrationRow): Promise<string | null> }
  tuning?: McpTuning
}

export type McpService = ReturnType<typeof mcpService>

/** What the connection test, the tool catalogue and a tool call do with a server. */
export function mcpService({ integrations, stores, units, policy, events, now, logger, oauth, tuning = {} }: McpServiceDeps) {
  const connectTimeoutMs = tuning.connectTimeoutMs ?? 10_000
  const catalogueMaxAgeMs = tuning.catalogueMaxAgeMs ?? 10 * 60_000
  const outputLimit = tuning.outputLimit ?? 100_000
  const ca = tuning.ca
  /** Integrations whose server said its tools changed since they were listed. */
  const changedTools = new Set<string>()
  /** Listings under way: concurrent readers share one. */
  const listing = new Map<string, Promise<Catalogue>>()

  function endpointOf(row: IntegrationRow): McpEndpoint {
    const config = mcpConfigOf(row)
    const secrets = mcpSecretsOf(row)
    const headers: Record<string, string> =
      config.auth.type === 'bearer' ? { authorization: `Bearer ${secrets.token}` } : config.auth.type === 'headers' ? { ...secrets.headers } : {}
    const authProvider = oauth?.providerFor(row)
    return { url: config.url, transport: config.transport, headers, authProvider, onAnswer: authProvider?.noteAnswer }
  }

  function open(row: IntegrationRow, hooks: { onToolsChanged?: () => void; onClosed?: () => void } = {}): Promise<McpConnection> {
    return connectMcp(endpointOf(row), { policy, ca, timeoutMs: connectTimeoutMs, ...hooks })
  }

  const manager = connectionManager({
    open,
    events,
    idleMs: tuning.idleMs ?? 5 * 60_000,
    // Each idle streamable-HTTP connection holds a GET stream open, and Bun's fetch runs at most
    // 256 requests at once (BUN_CONFIG_MAX_HTTP_REQUESTS): holding more would stall every
    // outbound request of the process, webhooks included.
    maxConnections: tuning.maxConnections ?? 200,
    onToolsChanged: (integrationId) => changedTools.add(integrationId),
  })

  async function failureOf(error: unknown, note: McpConnection['note'] | undefined, row: IntegrationRow): Promise<McpFailure> {
    const failure = await classifyFailure(error, note ?? exchangeNoteOf(error), { url: mcpConfigOf(row).url, policy, ca, timeoutMs: connectTimeoutMs })
    if (oauth && mcpConfigOf(row).auth.type === 'oauth' && failure.kind === 'unauthorized') {
      failure.needs_authorization = (await oauth.stateOf(row)).status === 'needs_authorization'
      const wanted = await oauth.wantedScopeOf(row)
      if (failure.needs_authorization) {
        failure.message = 'Parley holds no usable OAuth tokens for this server (none yet, or a refresh failed): a person must authorize it with POST .../oauth/start'
      } else if (wanted) {
        failure.needs_authorization = true
        failure.message = `the server asks for more scope (${wanted.slice(0, 200)}) than was granted: a person must authorize it again with POST .../oauth/start`
      }
    }
    return failure
  }

  async function listAndSave(row: IntegrationRow, connection: McpConnection): Promise<Catalogue> {
    changedTools.delete(row.id)
    const catalogue = { tools: await listAllTools(connection.client, connectTimeoutMs), listed_at: now() }
    await units.unit((tx) => tx.mcpCatalogues.save(row.id, catalogue))
    recent.delete(row.id)
    return catalogue
  }

  const view = (config: McpConfig, catalogue: Catalogue): ToolView[] =>
    catalogue.tools.map((tool) => {
      const deniedBy = toolDenial(config.tools, tool.name, tool.annotations)
      return { ...tool, allowed: deniedBy === null, denied_by: deniedBy }
    })

  /**
   * The catalogue each tool call last used, with when it was read from the store: a call within
   * a second of the last read uses it without a query (one indexed read was a twentieth of
   * Parley's time per call). This service's own listings replace it at once; a listing written
   * by anything else is seen within that second.
   */
  const recent = new Map<string, { catalogue: Catalogue; listedAtMs: number; readAtMs: number }>()
  const RECENT_MS = 1000

  async function storedCatalogue(integrationId: string): Promise<{ catalogue: Catalogue; listedAtMs: number } | null> {
    // The process's own clock, not the domain clock a test may hold still.
    const readAtMs = performance.now()
    const kept = recent.get(integrationId)
    if (kept && readAtMs - kept.readAtMs < RECENT_MS) return kept
    const catalogue = await stores.mcpCatalogues.get(integrationId)
    if (!catalogue) {
      recent.delete(integrationId)
      return null
    }
    const read = { catalogue, listedAtMs: Date.parse(catalogue.listed_at), readAtMs }
    recent.delete(integrationId)
    recent.set(integrationId, read)
    if (recent.size > 1000) recent.delete(recent.keys().next().value as string)
    return read
  }

  /** The stored catalogue, listed again when missing, old, or announced as changed. */
  async function currentCatalogue(row: IntegrationRow): Promise<Catalogue> {
    const nowMs = Date.parse(now())
    const found = await storedCatalogue(row.id)
    const stored = found?.catalogue
    const fresh = stored && !changedTools.has(row.id) && nowMs - (found?.listedAtMs ?? 0) < catalogueMaxAgeMs
    if (fresh || (stored && !row.is_active)) return stored
    let pending = listing.get(row.id)
    if (!pending) {
      pending = manager.use(row, (connection) => listAndSave(row, connection)).finally(() => listing.delete(row.id))
      listing.set(row.id, pending)
    }
    try {
      return await pending
    } catch (error) {
      if (stored) return stored
      throw unavailable(await failureOf(error, undefined, row))
    }
  }

  return {
    manager,

    async test(workspaceId: string, chatbotId: string, id: string): Promise<McpTestResult> {
      const row = await integrations.row(workspaceId, chatbotId, id)
      const started = performance.now()
      let connection: McpConnection | undefined
      try {
        connection = await open(row, { onToolsChanged: () => changedTools.add(row.id), onClosed: () => manager.close(row.id) })
        const catalogue = await listAndSave(row, connection)
        const result: McpTestResult = {
          ok: true,
          transport_used: connection.transportUsed,
          protocol_version: connection.protocolVersion,
          server: connection.server,
          capabilities: connection.capabilities as Record<string, unknown>,
          tools: view(mcpConfigOf(row), catalogue),
          latency_ms: elapsed(started),
        }
        // The tested connection becomes the integration's, so the next call needs no new one.
        if (row.is_active) manager.adopt(row, connection)
        else await connection.close()
        return result
      } catch (error) {
        await connection?.close()
        const failure = await failureOf(error, connection?.note, row)
        logger.info('mcp connection test failed', { integration_id: row.id, kind: failure.kind })
        return { ok: false, failure, latency_ms: elapsed(started) }
      }
    },

    async tools(workspaceId: string, chatbotId: string, id: string): Promise<McpToolList> {
      const row = await integrations.row(workspaceId, chatbotId, id)
      const catalogue = await currentCatalogue(row)
      return { tools: view(mcpConfigOf(row), catalogue), listed_at: catalogue.listed_at }
    },

    async call(workspaceId: string, chatbotId: string, id: string, name: string, args: Record<string, unknown>): Promise<McpToolResult> {
      const row = await integrations.row(workspaceId, chatbotId, id)
      const config = mcpConfigOf(row)
      if (!row.is_active) throw new ApiError(409, 'integration_inactive', 'this mcp integration is switched off (is_active: false)')
      // Refused before anything else, whatever the server lists and whatever the arguments.
      if (toolDenial(config.tools, name)) throw notAllowed(name, 'lists')
      const started = performance.now()
      const tool = (await currentCatalogue(row)).tools.find((candidate) => candidate.name === name)
      if (!tool) throw new ApiError(404, 'tool_not_found', `the server lists no tool named "${name}"`)
      if (toolDenial(config.tools, name, tool.annotations)) throw notAllowed(name, 'annotations')
      const errors = checkArguments(tool.input_schema, args)
      if (errors.length > 0) {
        const detail = errors.map((error) => `${error.path.slice(1).replaceAll('/', '.')} ${error.message}`).join('; ')
        throw unprocessable('validation_failed', `the arguments do not match the tool's input schema: ${detail}`, errors)
      }
      let result: { content?: unknown; structuredContent?: unknown; isError?: unknown }
      try {
        result = (await manager.use(row, (connection) =>
          connection.client.callTool({ name, arguments: args }, undefined, { timeout: config.timeout_ms }),
        )) as typeof result
      } catch (error) {
        if (isTimeout(error)) {
          throw new ApiError(504, 'tool_timeout', `the tool did not answer within timeout_ms (${config.timeout_ms} ms)`)
        }
        if (error instanceof McpError && error.code !== -32000) {
          // The server answered with a JSON-RPC error: the call happened and failed.
          result = { content: [{ type: 'text', text: error.message }], isError: true }
        } else {
          throw unavailable(await failureOf(error, undefined, row))
        }
      }
      const cut = cutOutput((Array.isArray(result.content) ? result.content : []) as ContentBlock[], result.structuredContent, outputLimit)
      return { ...cut, is_error: result.isError === true, latency_ms: elapsed(started) }
    },

    close: () => manager.closeAll(),
  }
}

function notAllowed(name: string, by: Exclude<ToolDenial, 'deny' | 'allow'> | 'lists'): ApiError {
  return new ApiError(
    403,
    'tool_not_allowed',
    by === 'lists'
      ? `the tool "${name}" is not allowed by this integration's tools.allow and tools.deny`
      : `the tool "${name}" is not marked safe by its server (its annotations say neither readOnlyHint: true nor destructiveHint: false), so it is denied until tools.allow names it`,
  )
}

function unavailable(failure: McpFailure): ApiError {
  return new ApiError(502, 'mcp_unavailable', `the MCP server could not be used (${failure.kind}): ${failure.message}`)
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10
}
