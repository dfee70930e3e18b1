import type { StoredContact } from '../../conversations/contact-store.ts'
import type { TurnWriter } from '../../conversations/service.ts'
import type { ChatappChannel } from '../../integrations/channel-lookups.ts'
import { isoAt, type OutboxTime } from '../../outbox/outbox-time.ts'
import type { NewDelivery, OutboxStore } from '../../outbox/outbox-store.ts'
import { newId } from '../../support/new-id.ts'
import type { ChatappStore, SendRow } from './chatapp-store.ts'
import { toCloudMessages } from './cloud-api-messages.ts'
import { flowTokenOf, type MetaFlowView } from './meta-flow-message.ts'

interface Deps {
  findIntegration: (integrationId: string) => ChatappChannel | null
  contactOf: (contactId: string) => StoredContact | undefined
  /** The published meta flow of a chatbot, with its name; null when it is not published. */
  metaFlow: (workspaceId: string, chatbotId: string, flowId: string) => MetaFlowView | null
  /** The provider's messages endpoint of a business number. */
  messagesUrl: (phoneNumberId: string) => string
  outbox: OutboxStore
  sends: ChatappStore
  time: OutboxTime
}

/**
 * The chatapp channel's share of every turn: each bot or agent message of a chatapp
 * conversation as the provider's messages (one or more, see cloud-api-messages.ts), queued
 * in the outbox in the turn's own transaction, with what each carries. The user's own
 * messages are not sent back, and status changes have nothing to send. An integration that
 * is gone or switched off gets nothing.
 */
export function chatappTurnWriter({ findIntegration, contactOf, metaFlow, messagesUrl, outbox, sends, time }: Deps): TurnWriter {
  return {
    writesFor({ conversation, messages }) {
      if (conversation.channel !== 'chatapp' || !conversation.integration_id) return null
      const outgoing = messages.filter((message) => message.role !== 'visitor')
      if (outgoing.length === 0) return null
      const integration = findIntegration(conversation.integration_id)
      if (!integration?.isActive || integration.chatbotId !== conversation.chatbot_id) return null
      const phone = contactOf(conversation.contact_id)?.external_id
      // The provider addresses users by their number; a chatapp contact always has one.
      if (!phone?.startsWith('+')) return null

      const at = isoAt(time.now())
      const context = {
        to: phone.slice(1),
        flowToken: (flowId: string) => flowTokenOf(conversation.id, flowId),
        metaFlow: (flowId: string) => metaFlow(integration.workspaceId, conversation.chatbot_id, flowId),
      }
      const rows: { delivery: NewDelivery; send: SendRow }[] = []
      for (const message of outgoing) {
        for (const [part, cloud] of toCloudMessages(message.content, context).entries()) {
          const id = `dlv_${newId()}`
          rows.push({
            delivery: {
              id,
              kind: 'chatapp',
              chatbot_id: conversation.chatbot_id,
              integration_id: integration.integrationId,
              ordering_key: conversation.id,
              event_type: cloud.type,
              body: JSON.stringify(cloud.body),
              url: messagesUrl(integration.phoneNumberId),
              created_at: at,
            },
            send: {
              delivery_id: id,
              chatbot_id: conversation.chatbot_id,
              integration_id: integration.integrationId,
              conversation_id: conversation.id,
              message_id: message.id,
              part,
              adaptation: cloud.adaptation,
              created_at: at,
            },
          })
        }
      }
      if (rows.length === 0) return null
      return () => {
        for (const { delivery, send } of rows) {
          outbox.insert(delivery)
          sends.insertSend(send)
        }
      }
    },
  }
}
