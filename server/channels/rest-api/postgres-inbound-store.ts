import type { SQL } from 'bun'
import { STORED_CONVERSATION_COLUMNS, type StoredConversation } from '../../conversations/conversation-store.ts'
import { type MessageRow, toMessage } from '../../conversations/message-store.ts'
import type { InboundStore } from './inbound-store.ts'

export function postgresInboundStore(sql: SQL): InboundStore {
  return {
    async latestOpenConversation(contactId, integrationId) {
      // Byte order, as SQLite compares text.
      const [row] = await sql.unsafe<StoredConversation[]>(
        `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE contact_id = $1 AND channel = 'rest-api' AND integration_id = $2 AND status <> 'closed'
         ORDER BY created_at COLLATE "C" DESC, id COLLATE "C" DESC LIMIT 1`,
        [contactId, integrationId],
      )
      return row
    },
    async findUserMessage(contactId, clientId) {
      const [row] = await sql<MessageRow[]>`
        SELECT m.id, m.conversation_id, m.role, m.client_id, m.author, m.author_avatar_url, m.content, m.created_at
        FROM messages m JOIN conversations c ON c.seq = m.conversation_seq
        WHERE c.contact_id = ${contactId} AND c.channel = 'rest-api' AND m.role = 'visitor' AND m.client_id = ${clientId}
        ORDER BY m.id COLLATE "C" LIMIT 1`
      return toMessage(row ?? null)
    },
  }
}
