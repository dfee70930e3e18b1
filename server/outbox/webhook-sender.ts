import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { VERSION } from '../version.ts'
import type { OutboxTime } from './outbox-time.ts'
import { type AttemptOutcome, parseRetryAfter } from './retry-policy.ts'
import { signWebhook } from './sign-webhook.ts'

export interface WebhookRequest {
  url: string
  /** `whsec_...`; only ever used to sign, never sent or logged. */
  secret: string
  /** The webhook-id. */
  id: string
  body: string
}

export interface WebhookSenderOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  time: OutboxTime
  /** The whole exchange: connecting, sending, the answer's status and the first KiB of its body. */
  timeoutMs: number
  /** Extra trusted certificates (tests run an https receiver with their own authority). */
  ca?: string
}

export type WebhookSender = (request: WebhookRequest, shutdown: AbortSignal) => Promise<AttemptOutcome>

/** How much of a receiver's answer is kept for the delivery log. */
const SNIPPET_CHARACTERS = 200
const SNIPPET_BYTES = 1024

/**
 * POSTs one signed webhook (Standard Webhooks headers) and reports how it went.
 *
 * SSRF: the URL's name is resolved and every address checked just before connecting, and
 * the request then goes to a checked address itself (the name travels in the Host header
 * and, over https, as the TLS server name that the certificate is verified against), so a
 * second DNS answer cannot send it elsewhere (DNS rebinding). Redirects are not followed.
 */
export function webhookSender({ policy, time, timeoutMs, ca }: WebhookSenderOptions): WebhookSender {
  return async (request, shutdown) => {
    const controller = new AbortController()
    let timedOut = false
    const timer = time.setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const stop = () => controller.abort()
    shutdown.addEventListener('abort', stop)
    if (shutdown.aborted) controller.abort()
    const gaveUp = (): AttemptOutcome => (timedOut ? { kind: 'timeout', afterMs: timeoutMs } : { kind: 'interrupted' })
    try {
      // A slow DNS answer counts against the timeout and does not hold up a shutdown.
      const resolved = await Promise.race([policy.resolveAndCheck(request.url), abortion(controller.signal)])
      if (resolved === null) return gaveUp()
      if (!resolved.ok) {
        // A name that does not resolve may resolve later; a refused address will stay refused.
        return resolved.reason.startsWith('the host ') ? { kind: 'unresolved', reason: resolved.reason } : { kind: 'refused', reason: resolved.reason }
      }
      const { url } = resolved
      const timestamp = Math.floor(time.now() / 1000)
      const headers = {
        host: url.host,
        'content-type': 'application/json',
        'user-agent': `Parley-Webhooks/${VERSION}`,
        'webhook-id': request.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(request.secret, request.id, timestamp, request.body),
      }
      // Every checked address in turn, until one can be reached (a name with an IPv6
      // address is not undeliverable from a host without IPv6).
      let failure: unknown
      for (const address of resolved.addresses) {
        const pinned = new URL(url)
        pinned.hostname = address.includes(':') ? `[${address}]` : address
        const serverName = url.protocol === 'https:' && pinned.hostname !== url.hostname ? url.hostname : undefined
        let response: Response
        try {
          response = await fetch(pinned, {
            method: 'POST',
            headers,
            body: request.body,
            redirect: 'manual',
            signal: controller.signal,
            tls: serverName || ca ? { ...(serverName ? { serverName } : {}), ...(ca ? { ca } : {}) } : undefined,
          })
        } catch (error) {
          if (controller.signal.aborted) return gaveUp()
          failure = error
          continue
        }
        const snippet = await readSnippet(response)
        return { kind: 'response', status: response.status, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), time.now()), snippet }
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
}

/** Settles with null once the signal aborts (never rejects). */
function abortion(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null)
    else signal.addEventListener('abort', () => resolve(null), { once: true })
  })
}

/** The start of the answer as one line of plain text; the rest is not read. */
async function readSnippet(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < SNIPPET_BYTES) {
      const { value, done } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } catch {
    // An answer cut off after its status still counts by its status.
  } finally {
    reader.cancel().catch(() => {})
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, SNIPPET_BYTES))
  return text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim().slice(0, SNIPPET_CHARACTERS)
}

function describeFailure(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code ?? message ?? String(error)
}
