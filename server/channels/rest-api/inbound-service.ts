import { normalizeContactDetails } from '../../conversations/contact-details.ts'
import type { ChannelContext, ConversationService, VisitorInput } from '../../conversations/service.ts'
import type { VisitorService } from '../../conversations/visitor-service.ts'
import { ApiError, conflict, unprocessable } from '../../http/api-error.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import type { InboundStore } from './inbound-store.ts'
import type { InboundAccepted, InboundMessage } from './model.ts'
import { contactExternalId } from './user-id.ts'

interface Deps {
  integrations: Pick<IntegrationService, 'restApi'>
  visitors: VisitorService
  conversations: ConversationService
  store: InboundStore
}

export interface Received {
  accepted: InboundAccepted
  /** A retry of a client_id already stored: nothing was stored or run again. */
  replayed: boolean
}

export type RestApiInbound = ReturnType<typeof restApiInbound>

/**
 * A user's message arriving through the API: the contact it comes from (found or created),
 * the conversation it continues (or a new one, in the entry flow), stored once per client_id,
 * and answered by the bot, whose messages leave by webhook.
 */
export function restApiInbound({ integrations, visitors, conversations, store }: Deps) {
  return {
    receive(workspaceId: string, chatbotId: string, input: InboundMessage): Received {
      const integration = integrations.restApi.get(workspaceId, chatbotId)
      if (!integration.is_active) {
        throw conflict('integration_inactive', 'the rest-api integration is switched off; PATCH it with "is_active": true to take messages again')
      }
      const content = contentOf(input)
      const externalId = contactExternalId(input.user_id)
      const contact = visitors.ensureContact(chatbotId, { externalId, tokenHash: '' })
      const shown = { id: contact.id, external_id: externalId }

      if (input.client_id) {
        const earlier = store.findUserMessage(contact.id, input.client_id)
        if (earlier) return { accepted: { conversation_id: earlier.conversation_id, contact: shown, message: earlier }, replayed: true }
      }
      // Before the bot runs, so that its first answer can already use them.
      if (input.contact_details) visitors.mergeDetails(contact.id, normalizeContactDetails(input.contact_details).details)
      const ctx: ChannelContext = { chatbotId, channel: 'rest-api', integrationId: integration.id }
      const said = { clientId: input.client_id, content }
      const running = store.latestOpenConversation(contact.id, integration.id)
      // A first message opens the conversation; it answers only what the first state listens for, as on every channel.
      const { conversation, message } = running
        ? { conversation: running, ...conversations.visitorSays(running, said, ctx) }
        : conversations.openWith(ctx, contact.id, null, said)
      return { accepted: { conversation_id: conversation.id, contact: shown, message }, replayed: false }
    },
  }
}

function contentOf(input: InboundMessage): VisitorInput['content'] {
  if (input.text !== undefined && input.reply !== undefined) throw oneOf('send either text or reply, not both', ['/text', '/reply'])
  if (input.text !== undefined) return { kind: 'text', text: input.text }
  if (input.reply !== undefined) return { kind: 'reply', ...input.reply }
  throw oneOf('send text (a message) or reply (the pick of a button or list row)', ['/text'])
}

function oneOf(message: string, paths: string[]): ApiError {
  return unprocessable('validation_failed', `the request body is invalid: ${message}`, paths.map((path) => ({ path, message })))
}
