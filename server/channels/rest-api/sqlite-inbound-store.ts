import type { Database } from 'bun:sqlite'
import { STORED_CONVERSATION_COLUMNS, type StoredConversation } from '../../conversations/conversation-store.ts'
import { type MessageRow, toMessage } from '../../conversations/message-store.ts'
import { settled } from '../../db/settled.ts'
import type { InboundStore } from './inbound-store.ts'

export function sqliteInboundStore(db: Database): InboundStore {
  const latestOpen = db.query<StoredConversation, [string, string]>(
    `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE contact_id = ? AND channel = 'rest-api' AND integration_id = ? AND status != 'closed'
     ORDER BY created_at DESC, id DESC LIMIT 1`,
  )
  const userMessage = db.query<MessageRow, [string, string]>(
    `SELECT m.* FROM messages m JOIN conversations c ON c.seq = m.conversation_seq
     WHERE c.contact_id = ? AND c.channel = 'rest-api' AND m.role = 'visitor' AND m.client_id = ? ORDER BY m.id LIMIT 1`,
  )
  return {
    latestOpenConversation: (contactId, integrationId) => settled(() => latestOpen.get(contactId, integrationId) ?? undefined),
    findUserMessage: (contactId, clientId) => settled(() => toMessage(userMessage.get(contactId, clientId))),
  }
}
