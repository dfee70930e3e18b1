import { discoverOAuthProtectedResourceMetadata, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { BothTransportsFailed, isTimeout } from './connect.ts'
import { type ExchangeNote, McpNetworkError, pinnedFetch } from './pinned-fetch.ts'

export const MCP_FAILURE_KINDS = ['dns', 'refused', 'tls', 'timeout', 'unauthorized', 'not_mcp', 'protocol_error', 'blocked_address'] as const
export type McpFailureKind = (typeof MCP_FAILURE_KINDS)[number]

/** Why a server could not be used, worded for the person who set it up. */
export interface McpFailure {
  kind: McpFailureKind
  message: string
  /** The HTTP status of the server's last answer, when there was one. */
  http_status: number | null
  /** unauthorized: what the server asked for. */
  www_authenticate?: string | null
  /** unauthorized: its OAuth protected-resource metadata (RFC 9728), when it publishes one. */
  resource_metadata?: Record<string, unknown> | null
  /** oauth: true when a person must authorize Parley (no tokens, or a refresh failed). */
  needs_authorization?: boolean
}

const MESSAGE_LIMIT = 500

/**
 * Sorts an error of connecting or calling into one of the kinds a person can act on. The
 * SDK reports some failures vaguely (an SSE stream's error event, a wrapped fetch error), so
 * the exchange note of the connection (the last network failure, the last answer's status
 * and content type) decides where the error alone cannot.
 */
export async function classifyFailure(
  error: unknown,
  note: ExchangeNote,
  discovery: { url: string; policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>; ca?: string; timeoutMs: number },
): Promise<McpFailure> {
  const errors = error instanceof BothTransportsFailed ? [error.sse, error.streamable] : [error]
  const status = note.lastAnswer?.status ?? null
  const network = errors.map(networkErrorIn).find(Boolean) ?? note.failure
  if (network) {
    const kind = network.kind === 'network' ? 'refused' : network.kind
    return { kind, message: network.message, http_status: null }
  }
  if (errors.some(isTimeout)) return { kind: 'timeout', message: 'the server did not answer in time', http_status: status }
  if (errors.some(isUnauthorized) || status === 401) {
    const wwwAuthenticate = note.lastAnswer?.status === 401 || note.lastAnswer?.status === 403 ? note.lastAnswer.wwwAuthenticate : null
    return {
      kind: 'unauthorized',
      message: `the server refused Parley's credentials (HTTP ${status ?? 401}); check the integration's auth`,
      http_status: status,
      www_authenticate: wwwAuthenticate,
      resource_metadata: await protectedResourceMetadata(discovery, wwwAuthenticate),
    }
  }
  const answer = note.lastAnswer
  if (answer && looksLikeNotMcp(answer.status, answer.contentType)) {
    return {
      kind: 'not_mcp',
      message: `the URL answers (HTTP ${answer.status}${answer.contentType ? `, ${answer.contentType.split(';')[0]}` : ''}) but not as an MCP server; check the path (often /mcp, or /sse for old servers)`,
      http_status: answer.status,
    }
  }
  return { kind: 'protocol_error', message: clip(messageOf(errors[0])), http_status: status }
}

function networkErrorIn(error: unknown): McpNetworkError | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof McpNetworkError) return current
  }
  return undefined
}

function isUnauthorized(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true
  if (error instanceof StreamableHTTPError || error instanceof SseError) return error.code === 401 || error.code === 403
  return false
}

function looksLikeNotMcp(status: number, contentType: string): boolean {
  if ([404, 405, 406, 410, 415].includes(status)) return true
  if (status >= 200 && status < 300) return !/application\/json|text\/event-stream/i.test(contentType)
  return false
}

/**
 * The metadata a 401 points to (`resource_metadata=` in WWW-Authenticate), or the well-known
 * one; fetched through the same address policy. Absent or broken metadata is just null.
 */
async function protectedResourceMetadata(
  discovery: { url: string; policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>; ca?: string; timeoutMs: number },
  wwwAuthenticate: string | null | undefined,
): Promise<Record<string, unknown> | null> {
  const pointed = wwwAuthenticate?.match(/resource_metadata="([^"]+)"/)?.[1]
  const fetch = pinnedFetch({ policy: discovery.policy, ca: discovery.ca, note: {} })
  try {
    const metadata = await Promise.race([
      discoverOAuthProtectedResourceMetadata(discovery.url, pointed ? { resourceMetadataUrl: pointed } : {}, fetch),
      Bun.sleep(discovery.timeoutMs).then(() => undefined),
    ])
    return metadata ? (metadata as unknown as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length > MESSAGE_LIMIT ? `${oneLine.slice(0, MESSAGE_LIMIT)}…` : oneLine
}
