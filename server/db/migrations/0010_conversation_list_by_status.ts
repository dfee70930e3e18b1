import type { Migration } from '../migration.ts'

export const conversationListByStatus: Migration = {
  id: 10,
  name: 'conversation_list_by_status',
  up(db) {
    db.exec(`
      -- The conversation list was kept in last-activity order by an index on last_message_at,
      -- which every chat turn rewrote (a page of the index per turn). It is now indexed by
      -- status, which changes only at a handoff or a close, and sorted when it is read: an
      -- agent's inbox (one status) is much faster, an unfiltered list of a chatbot with very
      -- many conversations somewhat slower (docs/performance.md).
      DROP INDEX conversations_by_chatbot;
      CREATE INDEX conversations_by_chatbot ON conversations (chatbot_id, status);
    `)
  },
}
