import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import type { OutboxTime } from './outbox-time.ts'
import type { AttemptOutcome } from './retry-policy.ts'

export interface PinnedRequestOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  time: OutboxTime
  /** The whole exchange: resolving, connecting, sending, the answer's status and the part of its body that is read. */
  timeoutMs: number
  /** How much of the answer's body is read; the rest is not. */
  maxBodyBytes: number
  /** Extra trusted certificates (tests run an https receiver with their own authority). */
  ca?: string
  /** GET sends no body (a download through the same checks); POST unless told. */
  method?: 'GET' | 'POST'
}

/** The receiver's answer: its status, headers and the start of its body. */
export interface PinnedAnswer {
  kind: 'answer'
  status: number
  headers: Headers
  body: Uint8Array
  /**
   * The body stopped before its end and before `maxBodyBytes` (the timeout fired, or the
   * connection broke, mid-body): enough for a status, never for a file.
   */
  cutShort: boolean
}

/**
 * Sends one request to `url` (a POST of `body`, or a GET: webhooks, Cloud API sends, media
 * downloads) and reads the answer, or tells why there is none (timeout, network, a name that
 * does not resolve, an address Parley may not reach, a shutdown).
 *
 * SSRF: the URL's name is resolved and every address checked just before connecting, and
 * the request then goes to a checked address itself (the name travels in the Host header
 * and, over https, as the TLS server name that the certificate is verified against), so a
 * second DNS answer cannot send it elsewhere (DNS rebinding). Redirects are not followed.
 * `headers` is called once the address is checked, with the URL as resolved.
 */
export async function pinnedRequest(
  url: string,
  headers: (url: URL) => Record<string, string>,
  body: string,
  options: PinnedRequestOptions,
  shutdown: AbortSignal,
): Promise<PinnedAnswer | Exclude<AttemptOutcome, { kind: 'response' }>> {
  const { policy, time, timeoutMs, maxBodyBytes, ca, method = 'POST' } = options
  const controller = new AbortController()
  let timedOut = false
  const timer = time.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const stop = () => controller.abort()
  shutdown.addEventListener('abort', stop)
  if (shutdown.aborted) controller.abort()
  const gaveUp = () => (timedOut ? { kind: 'timeout' as const, afterMs: timeoutMs } : { kind: 'interrupted' as const })
  try {
    // A slow DNS answer counts against the timeout and does not hold up a shutdown.
    const resolved = await Promise.race([policy.resolveAndCheck(url), abortion(controller.signal)])
    if (resolved === null) return gaveUp()
    if (!resolved.ok) {
      // A name may resolve (to an address Parley may reach) later; a refused URL stays refused.
      return { kind: resolved.kind, reason: resolved.reason }
    }
    const checked = resolved.url
    const sent = { host: checked.host, ...headers(checked) }
    // Every checked address in turn, until one can be reached (a name with an IPv6
    // address is not undeliverable from a host without IPv6).
    let failure: unknown
    for (const address of resolved.addresses) {
      const pinned = new URL(checked)
      pinned.hostname = address.includes(':') ? `[${address}]` : address
      const serverName = checked.protocol === 'https:' && pinned.hostname !== checked.hostname ? checked.hostname : undefined
      let response: Response
      try {
        response = await fetch(pinned, {
          method,
          headers: sent,
          body: method === 'GET' ? undefined : body,
          redirect: 'manual',
          signal: controller.signal,
          tls: serverName || ca ? { ...(serverName ? { serverName } : {}), ...(ca ? { ca } : {}) } : undefined,
        })
      } catch (error) {
        if (controller.signal.aborted) return gaveUp()
        failure = error
        continue
      }
      return { kind: 'answer', status: response.status, headers: response.headers, ...(await readStart(response, maxBodyBytes)) }
    }
    return { kind: 'network', error: describeFailure(failure) }
  } catch (error) {
    if (controller.signal.aborted) return gaveUp()
    return { kind: 'network', error: describeFailure(error) }
  } finally {
    time.clearTimeout(timer)
    shutdown.removeEventListener('abort', stop)
  }
}

/** Settles with null once the signal aborts (never rejects). */
function abortion(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null)
    else signal.addEventListener('abort', () => resolve(null), { once: true })
  })
}

/** The first `max` bytes of the answer's body; an answer cut off after its status still counts by its status. */
async function readStart(response: Response, max: number): Promise<{ body: Uint8Array; cutShort: boolean }> {
  if (!response.body) return { body: new Uint8Array(), cutShort: false }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let cutShort = false
  try {
    while (size < max) {
      const { value, done } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } catch {
    // Whatever arrived before the cut is kept, and said to be cut.
    cutShort = true
  } finally {
    reader.cancel().catch(() => {})
  }
  return { body: new Uint8Array(Buffer.concat(chunks).subarray(0, max)), cutShort }
}

function describeFailure(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code ?? message ?? String(error)
}
