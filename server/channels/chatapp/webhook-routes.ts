import { Elysia, t } from 'elysia'
import { ApiError, notFound } from '../../http/api-error.ts'
import { clientAddress } from '../../http/client-address.ts'
import { Problem } from '../../http/common-model.ts'
import { rawBody } from '../../http/json-body.ts'
import { MEDIA_TYPE } from '../../http/openapi.ts'
import { rateLimiter } from '../../http/rate-limiter.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import type { ChatappInboundService } from './inbound-service.ts'
import { WebhookPayload, WebhookSummary } from './model.ts'
import { answerWebhookHandshake } from './webhook-handshake.ts'
import { signatureProblem } from './webhook-signature.ts'

const Params = t.Object({ integration_id: t.String({ description: 'the chatapp integration ULID (from its callback_url)' }) })
const HandshakeQuery = t.Object({
  'hub.mode': t.Optional(t.String({ description: 'must be "subscribe"' })),
  'hub.verify_token': t.Optional(t.String({ description: 'the verify_token of the integration' })),
  'hub.challenge': t.Optional(t.String({ description: 'echoed back when the token matches', examples: ['1158201444'] })),
})

const tags = ['Webhooks']

/**
 * The provider side of a chatapp integration's callback_url. Public (the provider has no API
 * key): the handshake proves itself with the verify_token, the webhooks with a signature by
 * the app_secret when the integration has one.
 *
 * One limit per client address counts what could be guessing or flooding: every handshake,
 * every POST that is not signed with the app secret (none is, without one), and every
 * refused POST. A correctly signed POST never counts, so the provider's traffic is not
 * throttled however busy the number is.
 */
export function chatappWebhookRoutes(integrations: Pick<IntegrationService, 'findChatappById' | 'recordChatappHandshake'>, inbound: ChatappInboundService, perMinutePerAddress: number) {
  const limit = rateLimiter(perMinutePerAddress)
  const spend = (request: Request) => {
    const decision = limit(clientAddress(request))
    if (!decision.allowed) {
      throw new ApiError(429, 'rate_limited', `too many requests from this address; retry in ${decision.retryAfter} s`, undefined, {
        'retry-after': String(decision.retryAfter),
      })
    }
  }

  return new Elysia({ prefix: '/hooks/chatapp' })
    .get(
      '/:integration_id',
      async ({ params, query, request }) => {
        spend(request)
        const integration = await integrations.findChatappById(params.integration_id)
        let challenge: string
        try {
          challenge = answerWebhookHandshake(integration, {
            mode: query['hub.mode'],
            verifyToken: query['hub.verify_token'],
            challenge: query['hub.challenge'],
          })
        } catch (refusal) {
          // Recorded for the console ("did the provider's handshake work, and if not why?").
          if (integration && refusal instanceof ApiError) await integrations.recordChatappHandshake(integration.integrationId, { verified: false, refusal: refusal.detail })
          throw refusal
        }
        await integrations.recordChatappHandshake(params.integration_id, { verified: true })
        return new Response(challenge, {
          headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' },
        })
      },
      {
        params: Params,
        query: HandshakeQuery,
        response: { 200: t.String({ description: 'the hub.challenge', [MEDIA_TYPE]: 'text/plain' }), 403: Problem, 404: Problem },
        detail: {
          tags,
          security: [],
          summary: 'Chatapp webhook verification',
          description:
            'The messaging provider calls this when you save its webhook settings: 200 with hub.challenge as text/plain when hub.mode is subscribe, the integration is active and hub.verify_token matches; 403 otherwise; 404 for an unknown integration.',
        },
      },
    )
    .post(
      '/:integration_id',
      async ({ params, request, body }) => {
        const integration = await integrations.findChatappById(params.integration_id)
        if (!integration) {
          spend(request)
          throw notFound('chatapp integration')
        }
        if (integration.appSecret === null) spend(request)
        else {
          const problem = signatureProblem(integration.appSecret, rawBody(request) ?? new Uint8Array(), request.headers.get('x-hub-signature-256'))
          if (problem) {
            spend(request)
            throw new ApiError(401, 'invalid_signature', problem)
          }
        }
        // Checked after the signature, so that only the provider learns the integration's state.
        if (!integration.isActive) {
          throw new ApiError(403, 'integration_inactive', 'the chatapp integration is switched off; PATCH it with "is_active": true to take messages again')
        }
        return inbound.receive(integration, body)
      },
      {
        params: Params,
        body: WebhookPayload,
        response: { 200: WebhookSummary, 400: Problem, 401: Problem, 403: Problem, 404: Problem, 413: Problem, 415: Problem, 422: Problem, 429: Problem, 503: Problem },
        detail: {
          tags,
          security: [],
          summary: 'Chatapp webhook: messages and status reports',
          description:
            "The messaging provider POSTs users' messages and the delivery reports of Parley's messages here. With an app_secret on the integration, X-Hub-Signature-256 (sha256= and the hex HMAC-SHA256 of the body) is required (401 invalid_signature otherwise). 200 with a summary once stored: a message is stored once per provider message id, so a retried webhook stores nothing; changes for another phone_number_id are acknowledged and ignored. 403 integration_inactive when the integration is switched off, 404 for an unknown integration. 503 not_stored when the database could not commit, 503 shutting_down (with Retry-After) when Parley shut down while fetching the webhook's media files: nothing of the webhook is stored either way, and the provider sends it again.",
        },
      },
    )
}
