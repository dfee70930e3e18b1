import type { PostgresMigration } from '../migration.ts'

export const conversationListByStatus: PostgresMigration = {
  id: 10,
  name: 'conversation_list_by_status',
  sql: `
    DROP INDEX conversations_by_chatbot;
    CREATE INDEX conversations_by_chatbot ON conversations (chatbot_id, status);
  `,
}
