import { Elysia, t } from 'elysia'
import { Problem } from '../http/common-model.ts'
import type { IntegrationService } from '../integrations/service.ts'

const Params = t.Object({ integration_id: t.String({ description: 'the chatapp integration ULID (from its callback_url)' }) })
const HandshakeQuery = t.Object({
  'hub.mode': t.Optional(t.String({ description: 'must be "subscribe"' })),
  'hub.verify_token': t.Optional(t.String({ description: 'the verify_token of the integration' })),
  'hub.challenge': t.Optional(t.String({ description: 'echoed back when the token matches', examples: ['1158201444'] })),
})

/**
 * The provider side of a chatapp integration's callback_url. Public (the provider has no API
 * key): it proves itself with the verify_token. Only the verify handshake lives here so far.
 */
export function chatappHookRoutes(integrations: IntegrationService) {
  return new Elysia({ prefix: '/hooks/chatapp' }).get(
    '/:integration_id',
    ({ params, query }) => {
      const challenge = integrations.answerChatappHandshake({
        integrationId: params.integration_id,
        mode: query['hub.mode'],
        verifyToken: query['hub.verify_token'],
        challenge: query['hub.challenge'],
      })
      return new Response(challenge, {
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' },
      })
    },
    {
      params: Params,
      query: HandshakeQuery,
      response: { 200: t.String({ description: 'the hub.challenge, as text/plain' }), 403: Problem, 404: Problem },
      detail: {
        tags: ['Webhooks'],
        security: [],
        summary: 'Chatapp webhook verification',
        description:
          'The messaging provider calls this when you save its webhook settings: 200 with hub.challenge as text/plain when hub.mode is subscribe, the integration is active and hub.verify_token matches; 403 otherwise; 404 for an unknown integration.',
      },
    },
  )
}
