import type { OutboundUrlPolicy } from '../support/outbound-url.ts'

/** Why a request of an MCP connection could not go out, found before or while connecting. */
export type NetworkFailureKind = 'dns' | 'blocked_address' | 'refused' | 'tls' | 'timeout' | 'network'

/** Thrown by the pinned fetch; the SDK passes it on, or wraps it, so the note below keeps it too. */
export class McpNetworkError extends Error {
  constructor(
    readonly kind: NetworkFailureKind,
    message: string,
  ) {
    super(message)
    this.name = 'McpNetworkError'
  }
}

/** What the last exchange of a connection showed, for classifying a failure the SDK reports vaguely. */
export interface ExchangeNote {
  failure?: McpNetworkError
  /** Status, content type and WWW-Authenticate of the last answer (no body, no other header). */
  lastAnswer?: { url: string; status: number; contentType: string; wwwAuthenticate: string | null }
}

export interface PinnedFetchOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  /** Extra trusted certificates (tests run an https server with their own authority). */
  ca?: string
  note: ExchangeNote
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|ALTNAME|HANDSHAKE|UNABLE_TO_(VERIFY|GET)/i

/**
 * A fetch for the MCP SDK's transports that applies the outbound-address policy to every
 * request, the first and the later ones (the SSE transport's message endpoint, OAuth
 * discovery): the name is resolved and each address checked just before connecting, and the
 * request goes to a checked address itself, the name kept in the Host header and as the TLS
 * server name (see server/outbox/pinned-request.ts). Redirects are not followed here; the SDK
 * follows same-origin ones through this same fetch, so they are checked too.
 */
export function pinnedFetch({ policy, ca, note }: PinnedFetchOptions) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const target = typeof input === 'string' || input instanceof URL ? String(input) : input.url
    const resolved = await policy.resolveAndCheck(target)
    if (!resolved.ok) {
      // A name that does not resolve to an address Parley may reach is `dns`, whichever the
      // cause (the policy does not tell them apart, so that internal DNS stays private).
      throw remember(note, new McpNetworkError(resolved.kind === 'unresolved' ? 'dns' : 'blocked_address', resolved.reason))
    }
    const url = resolved.url
    const headers = new Headers(init.headers)
    headers.set('host', url.host)
    let failure: unknown
    for (const address of resolved.addresses) {
      const pinned = new URL(url)
      pinned.hostname = address.includes(':') ? `[${address}]` : address
      const serverName = url.protocol === 'https:' && pinned.hostname !== url.hostname ? url.hostname : undefined
      try {
        const response = await fetch(pinned, {
          ...init,
          headers,
          redirect: 'manual',
          tls: serverName || ca ? { ...(serverName ? { serverName } : {}), ...(ca ? { ca } : {}) } : undefined,
        } as RequestInit)
        note.failure = undefined
        note.lastAnswer = {
          url: url.href,
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          wwwAuthenticate: response.headers.get('www-authenticate'),
        }
        return response
      } catch (error) {
        if (init.signal?.aborted) throw error
        failure = error
      }
    }
    throw remember(note, describeNetworkError(failure))
  }
}

function remember(note: ExchangeNote, error: McpNetworkError): McpNetworkError {
  note.failure = error
  return error
}

function describeNetworkError(error: unknown): McpNetworkError {
  const { code, message } = error as { code?: string; message?: string }
  const text = `${code ?? ''} ${message ?? String(error)}`.trim()
  if (/ConnectionRefused|ECONNREFUSED/i.test(text)) return new McpNetworkError('refused', 'the server refused the connection (nothing listens on that port?)')
  if (TLS_CODES.test(text)) return new McpNetworkError('tls', `the TLS handshake failed: ${code ?? message}`)
  if (/Timeout|ETIMEDOUT/i.test(text)) return new McpNetworkError('timeout', 'connecting took too long')
  return new McpNetworkError('network', `the connection failed: ${code ?? message}`)
}
