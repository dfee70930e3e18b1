import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { VERSION } from '../version.ts'
import type { DeliveryRequest, DeliverySender } from './outbox-worker.ts'
import type { OutboxTime } from './outbox-time.ts'
import { pinnedRequest } from './pinned-request.ts'
import { parseRetryAfter } from './retry-policy.ts'
import { signWebhook } from './sign-webhook.ts'

/** A webhook delivery: `secret` is the `whsec_...` it is signed with (never sent or logged), `id` the webhook-id. */
export type WebhookRequest = DeliveryRequest

export interface WebhookSenderOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  time: OutboxTime
  /** The whole exchange: connecting, sending, the answer's status and the first KiB of its body. */
  timeoutMs: number
  /** Extra trusted certificates (tests run an https receiver with their own authority). */
  ca?: string
}

export type WebhookSender = DeliverySender

/** How much of a receiver's answer is kept for the delivery log. */
const SNIPPET_CHARACTERS = 200
const SNIPPET_BYTES = 1024

/**
 * POSTs one signed webhook (Standard Webhooks headers) to an address checked against SSRF
 * and pinned (see pinned-request.ts), and reports how it went. Redirects are not followed.
 */
export function webhookSender({ policy, time, timeoutMs, ca }: WebhookSenderOptions): WebhookSender {
  return async (request, shutdown) => {
    const headers = () => {
      const timestamp = Math.floor(time.now() / 1000)
      return {
        'content-type': 'application/json',
        'user-agent': `Parley-Webhooks/${VERSION}`,
        'webhook-id': request.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(request.secret, request.id, timestamp, request.body),
      }
    }
    const answer = await pinnedRequest(request.url, headers, request.body, { policy, time, timeoutMs, ca, maxBodyBytes: SNIPPET_BYTES }, shutdown)
    if (answer.kind !== 'answer') return answer
    return { kind: 'response', status: answer.status, retryAfterMs: parseRetryAfter(answer.headers.get('retry-after'), time.now()), snippet: snippetOf(answer.body) }
  }
}

/** The start of the answer as one line of plain text. */
function snippetOf(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes)
  return text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim().slice(0, SNIPPET_CHARACTERS)
}
