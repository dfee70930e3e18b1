import type { DeliveryRequest, DeliverySender } from '../../outbox/outbox-worker.ts'
import type { OutboxTime } from '../../outbox/outbox-time.ts'
import { pinnedRequest } from '../../outbox/pinned-request.ts'
import type { AttemptOutcome } from '../../outbox/retry-policy.ts'
import type { OutboundUrlPolicy } from '../../support/outbound-url.ts'
import { VERSION } from '../../version.ts'
import { type GraphOutcome, PARAMETER_CODES, readGraphAnswer } from './graph-answer.ts'

export interface CloudApiSenderOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  time: OutboxTime
  timeoutMs: number
  /** Extra trusted certificates, for a provider API behind a private authority. */
  ca?: string
}

/** The provider's answers are small; more than this is not read. */
const MAX_ANSWER_BYTES = 64 * 1024

/**
 * Sends one Cloud API message: `POST {url}` (the provider's `/{phone_number_id}/messages`)
 * with `Authorization: Bearer <access_token>` and the stored body, through the same SSRF
 * check and address pinning as webhooks. The wamid of an accepted message is its receipt.
 *
 * A flow message the provider refuses as built (most often: no flow of that name is
 * registered with it) is sent again at once as its call to action in text, so the user is
 * not left with nothing; the delivery notes it.
 */
export function cloudApiSender({ policy, time, timeoutMs, ca }: CloudApiSenderOptions): DeliverySender {
  async function call(request: DeliveryRequest, body: string, shutdown: AbortSignal): Promise<GraphOutcome> {
    const headers = () => ({
      authorization: `Bearer ${request.secret}`,
      'content-type': 'application/json',
      'user-agent': `Parley/${VERSION}`,
    })
    const answer = await pinnedRequest(request.url, headers, body, { policy, time, timeoutMs, ca, maxBodyBytes: MAX_ANSWER_BYTES }, shutdown)
    switch (answer.kind) {
      case 'answer':
        return readGraphAnswer(answer.status, answer.headers, new TextDecoder().decode(answer.body), time.now())
      case 'unresolved':
        return { kind: 'network', error: `the provider's API (PARLEY_CHATAPP_API_URL): ${answer.reason}` }
      case 'refused':
        return { kind: 'rejected', status: null, error: `the provider's API (PARLEY_CHATAPP_API_URL) ${answer.reason}` }
      default:
        return answer
    }
  }

  return async (request, shutdown): Promise<AttemptOutcome> => {
    const outcome = await call(request, request.body, shutdown)
    const fallback = flowFallback(request.body)
    if (!fallback || outcome.kind !== 'rejected' || outcome.graphCode === undefined || !PARAMETER_CODES.has(outcome.graphCode)) {
      return withoutCode(outcome)
    }
    const refused = `the provider refused the flow message (${outcome.error}); its call to action went as text`
    const second = withoutCode(await call(request, fallback, shutdown))
    if (second.kind === 'response') return { ...second, note: refused }
    if (second.kind === 'rejected' || second.kind === 'throttled') return { ...second, error: `${refused}, which failed too: ${second.error}` }
    return second
  }
}

/** The call to action of a flow message as a plain text message to the same user; null for any other message. */
function flowFallback(body: string): string | null {
  let message: { to?: unknown; type?: unknown; interactive?: { type?: unknown; body?: { text?: unknown } } }
  try {
    message = JSON.parse(body)
  } catch {
    return null
  }
  const text = message.interactive?.body?.text
  if (message.type !== 'interactive' || message.interactive?.type !== 'flow' || typeof text !== 'string') return null
  return JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to, type: 'text', text: { body: text } })
}

function withoutCode({ graphCode: _, ...outcome }: GraphOutcome): AttemptOutcome {
  return outcome as AttemptOutcome
}
