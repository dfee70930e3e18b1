import type { StoredContact } from '../../conversations/contact-store.ts'
import type { TurnWriter } from '../../conversations/service.ts'
import type { RestApiChannel } from '../../integrations/channel-lookups.ts'
import { isoAt, type OutboxTime } from '../../outbox/outbox-time.ts'
import type { NewDelivery, OutboxStore } from '../../outbox/outbox-store.ts'
import { newId } from '../../support/new-id.ts'
import type { WebhookEvent } from './model.ts'
import { messageCreated, statusChanged } from './webhook-events.ts'

interface Deps {
  findIntegration: (integrationId: string) => RestApiChannel | null
  contactOf: (contactId: string) => StoredContact | undefined
  store: OutboxStore
  time: OutboxTime
}

/**
 * The rest-api channel's share of every turn: one outbox row per bot or agent message and
 * per status change of a conversation on this channel, stored in the turn's own transaction.
 * The user's own messages are not sent back. An integration that is gone or switched off
 * gets nothing.
 */
export function restApiTurnWriter({ findIntegration, contactOf, store, time }: Deps): TurnWriter {
  return {
    writesFor({ conversation, messages, previousStatus }) {
      if (conversation.channel !== 'rest-api' || !conversation.integration_id) return null
      const outgoing = messages.filter((message) => message.role !== 'visitor')
      // A conversation starts with the bot; one whose flow hands off at once has changed status too.
      const before = previousStatus ?? 'bot'
      const changed = conversation.status !== before
      if (outgoing.length === 0 && !changed) return null
      const integration = findIntegration(conversation.integration_id)
      if (!integration?.isActive || integration.chatbotId !== conversation.chatbot_id) return null
      const contact = contactOf(conversation.contact_id)
      if (!contact) return null

      const at = isoAt(time.now())
      const subject = { conversation, integrationId: integration.integrationId, contact }
      const events: WebhookEvent[] = outgoing.map((message) => messageCreated(subject, message))
      if (changed) events.push(statusChanged(subject, conversation.status, before, at))
      const rows: NewDelivery[] = events.map((event) => ({
        id: `evt_${newId()}`,
        chatbot_id: conversation.chatbot_id,
        integration_id: integration.integrationId,
        ordering_key: conversation.id,
        event_type: event.type,
        body: JSON.stringify(event),
        url: integration.webhookUrl,
        created_at: at,
      }))
      return () => {
        for (const row of rows) store.insert(row)
      }
    },
  }
}
