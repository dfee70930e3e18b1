import type { StoredConversation } from '../../conversations/conversation-store.ts'
import type { Message } from '../../conversations/model.ts'

/**
 * The two reads the inbound endpoint needs beyond the conversation service: where to resume,
 * and what was already said (docs/architecture.md, "The store seam").
 */
export interface InboundStore {
  /** The contact's latest conversation on this integration that is not closed. */
  latestOpenConversation(contactId: string, integrationId: string): Promise<StoredConversation | undefined>
  /** The user's message with this client_id in any of their rest-api conversations (a retry may come after a close). */
  findUserMessage(contactId: string, clientId: string): Promise<Message | undefined>
}
