import { Elysia } from 'elysia'
import type { Authenticate } from '../../people/authenticate.ts'
import { chatbotLogRoute } from '../chatbot-log-route.ts'
import type { ChatappDeliveries } from './chatapp-deliveries.ts'
import type { ChatappInboundService } from './inbound-service.ts'
import { ChatappDeliveryList, ChatappDeliveryQuery, ChatappInboundList, ChatappInboundQuery } from './model.ts'

const tags = ['Chatapp channel']

/** The chatapp channel's own routes, beside the integration record's: what went out, and what came in. */
export function chatappChannelRoutes(auth: Authenticate, deliveries: ChatappDeliveries, inbound: ChatappInboundService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/integrations/chatapp' })
    .use(auth)
    .get(
      '/deliveries',
      ...chatbotLogRoute({
        query: ChatappDeliveryQuery,
        list: ChatappDeliveryList,
        read: deliveries.list,
        detail: {
          tags,
          summary: 'List the messages sent to the provider',
          description:
            "Newest first, kept 14 days after they finish: one item per provider message (a Parley message may need several), with its status (pending, accepted, failed), attempts, the provider's error when it refused, the wamid it gave, its delivery reports (sent, delivered, read, failed with errors), how the content was adapted, and the Cloud API body as sent. Filter with ?status= and ?conversation_id=.",
        },
      }),
    )
    .get(
      '/inbound',
      ...chatbotLogRoute({
        query: ChatappInboundQuery,
        list: ChatappInboundList,
        read: inbound.list,
        detail: {
          tags,
          summary: 'List the messages the provider delivered',
          description:
            "Newest first: each user message with its wamid, the Parley message it became, the sender, the provider's payload as received, and for a completed meta flow the fields it returned (form_response). Filter with ?conversation_id=.",
        },
      }),
    )
}
