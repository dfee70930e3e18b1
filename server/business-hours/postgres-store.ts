import type { SQL } from 'bun'
import type { BusinessHoursRow, BusinessHoursStore } from './store.ts'

/** The same SQL as the SQLite side (an upsert on the chatbot). */
export function postgresBusinessHoursStore(sql: SQL): BusinessHoursStore {
  return {
    chatbotInWorkspace: async (workspaceId, chatbotId) => (await sql`SELECT id FROM chatbots WHERE id = ${chatbotId} AND workspace_id = ${workspaceId}`).length > 0,
    get: async (chatbotId) =>
      (await sql<BusinessHoursRow[]>`SELECT chatbot_id, timezone, weekly, holidays, closed_text, updated_at FROM business_hours WHERE chatbot_id = ${chatbotId}`)[0],
    async put(r) {
      await sql`INSERT INTO business_hours (chatbot_id, timezone, weekly, holidays, closed_text, updated_at)
        VALUES (${r.chatbot_id}, ${r.timezone}, ${r.weekly}, ${r.holidays}, ${r.closed_text}, ${r.updated_at})
        ON CONFLICT (chatbot_id) DO UPDATE SET timezone = excluded.timezone, weekly = excluded.weekly, holidays = excluded.holidays,
          closed_text = excluded.closed_text, updated_at = excluded.updated_at`
    },
    remove: async (chatbotId) => (await sql`DELETE FROM business_hours WHERE chatbot_id = ${chatbotId} RETURNING chatbot_id`).length > 0,
  }
}
