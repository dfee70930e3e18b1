import { ApiError, notFound } from '../../http/api-error.ts'
import type { ChatappChannel } from '../../integrations/channel-lookups.ts'
import { constantTimeEqual } from '../../support/constant-time-equal.ts'

/** The provider's verification request: the hub.* query parameters of a GET on callback_url. */
export interface WebhookHandshake {
  mode: string | undefined
  verifyToken: string | undefined
  challenge: string | undefined
}

// Providers send a short numeric challenge; anything else is not echoed.
const CHALLENGE = /^[!-~]{1,256}$/

const refused = (detail: string) => new ApiError(403, 'verification_failed', detail)

/**
 * The provider's webhook verification: the challenge to echo back, or a 403/404 ApiError for
 * the integration found by the callback URL's id (null when there is none). The token is
 * compared in constant time, before the integration's state is revealed to the caller.
 */
export function answerWebhookHandshake(integration: ChatappChannel | null, { mode, verifyToken, challenge }: WebhookHandshake): string {
  if (!integration) throw notFound('chatapp integration')
  if (mode !== 'subscribe') throw refused('hub.mode must be "subscribe"')
  const expected = integration.verifyToken
  if (expected === null || verifyToken === undefined || !constantTimeEqual(verifyToken, expected)) {
    throw refused('hub.verify_token does not match the verify_token of this integration')
  }
  if (!integration.isActive) throw refused('the integration is inactive; PATCH is_active to true first')
  if (challenge === undefined || !CHALLENGE.test(challenge)) {
    throw refused('hub.challenge must be 1 to 256 visible ASCII characters')
  }
  return challenge
}
