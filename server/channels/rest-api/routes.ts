import { Elysia, t } from 'elysia'
import type { Authenticate } from '../../people/authenticate.ts'
import { ChatbotParams } from '../../http/common-model.ts'
import { errorResponses } from '../../http/error-responses.ts'
import type { BodyLimit } from '../../http/json-body.ts'
import { chatbotLogRoute } from '../chatbot-log-route.ts'
import type { RestApiInbound } from './inbound-service.ts'
import { Delivery, DeliveryList, DeliveryQuery, InboundAccepted, InboundMessage } from './model.ts'
import type { RestApiDeliveries } from './rest-api-deliveries.ts'

const tags = ['REST API channel']

/** The rest-api channel's own routes, beside the integration record's: messages in, deliveries out. */
export function restApiChannelRoutes(auth: Authenticate, inbound: RestApiInbound, deliveries: RestApiDeliveries) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/rest-api' })
    .use(auth)
    .post(
      '/messages',
      async ({ workspaceId, params, body, status, set }) => {
        const { accepted, replayed } = await inbound.receive(workspaceId, params.chatbot_id, body)
        if (replayed) set.headers['idempotent-replayed'] = 'true'
        return status(202, accepted)
      },
      {
        params: ChatbotParams,
        body: InboundMessage,
        response: { 202: InboundAccepted, ...errorResponses(400, 404, 409, 413, 415, 422) },
        detail: {
          tags,
          summary: "Send a user's message to the chatbot",
          description:
            "Finds or creates the contact of user_id, continues its open rest-api conversation or starts one in the entry flow, stores the message and runs the bot. A file (attachment: filename and base64 data; PNG, JPEG, GIF, WebP or PDF, at most PARLEY_ATTACHMENT_MAX_BYTES) is stored in the database and becomes a media message the flow reads as `[image] name` or `[file] name`. 202 with the stored message; the bot's answers are POSTed to webhook_url. A retry with the same client_id stores nothing and answers the first result again (header Idempotent-Replayed: true). 404 without the chatbot or its rest-api integration, 409 integration_inactive when it is switched off.",
        },
      },
    )
    .get(
      '/deliveries',
      ...chatbotLogRoute({
        query: DeliveryQuery,
        list: DeliveryList,
        read: deliveries.list,
        detail: {
          tags,
          summary: 'List webhook deliveries',
          description:
            'Newest first, kept 14 days after they finish: each with its status (pending, delivered, failed), attempts, next attempt, the last answer or error, and the payload as sent. Filter with ?status=.',
        },
      }),
    )
    .post('/deliveries/:delivery_id/redeliver', ({ workspaceId, params }) => deliveries.redeliver(workspaceId, params.chatbot_id, params.delivery_id), {
      params: t.Object({ ...ChatbotParams.properties, delivery_id: t.String({ description: 'the delivery id (its webhook-id)' }) }),
      response: { 200: Delivery, ...errorResponses(404, 409) },
      detail: {
        tags,
        summary: 'Send a failed delivery again',
        description:
          'Puts a failed delivery back in the outbox with its webhook-id and payload, signed with the current secret and sent to the current webhook_url, with the usual retries. 409 delivery_not_failed unless it failed; 409 integration_inactive while the integration is switched off.',
      },
    })
}

/**
 * The body parser's rule for a user's message: room for a file of PARLEY_ATTACHMENT_MAX_BYTES
 * in base64 (4 characters for 3 bytes) and the JSON around it.
 */
export function restApiMessageBodies(maxBytes: number): BodyLimit[] {
  return [{ path: /^\/api\/dev\/v1\/chatbots\/[^/]+\/integrations\/rest-api\/messages$/, bytes: Math.ceil(maxBytes / 3) * 4 + 64 * 1024 }]
}
