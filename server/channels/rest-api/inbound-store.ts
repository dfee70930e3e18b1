import type { Database } from 'bun:sqlite'
import { STORED_CONVERSATION_COLUMNS, type StoredConversation } from '../../conversations/conversation-store.ts'
import { type MessageRow, toMessage } from '../../conversations/message-store.ts'
import type { Message } from '../../conversations/model.ts'

export type InboundStore = ReturnType<typeof inboundStore>

/** The two reads the inbound endpoint needs beyond the conversation service: where to resume, and what was already said. */
export function inboundStore(db: Database) {
  const latestOpen = db.query<StoredConversation, [string, string]>(
    `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE contact_id = ? AND channel = 'rest-api' AND integration_id = ? AND status != 'closed'
     ORDER BY created_at DESC, id DESC LIMIT 1`,
  )
  const userMessage = db.query<MessageRow, [string, string]>(
    `SELECT m.* FROM messages m JOIN conversations c ON c.seq = m.conversation_seq
     WHERE c.contact_id = ? AND c.channel = 'rest-api' AND m.role = 'visitor' AND m.client_id = ? ORDER BY m.id LIMIT 1`,
  )

  return {
    /** The contact's latest conversation on this integration that is not closed. */
    latestOpenConversation: (contactId: string, integrationId: string) => latestOpen.get(contactId, integrationId) ?? undefined,

    /** The user's message with this client_id in any of their rest-api conversations (a retry may come after a close). */
    findUserMessage: (contactId: string, clientId: string): Message | undefined => toMessage(userMessage.get(contactId, clientId)),
  }
}
