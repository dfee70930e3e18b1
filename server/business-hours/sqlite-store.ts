import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { BusinessHoursRow, BusinessHoursStore } from './store.ts'

export function sqliteBusinessHoursStore(db: Database): BusinessHoursStore {
  const chatbot = db.query<{ id: string }, [string, string]>('SELECT id FROM chatbots WHERE id = ? AND workspace_id = ?')
  const get = db.query<BusinessHoursRow, [string]>('SELECT chatbot_id, timezone, weekly, holidays, closed_text, updated_at FROM business_hours WHERE chatbot_id = ?')
  const put = db.query<null, Record<string, string | null>>(
    `INSERT INTO business_hours (chatbot_id, timezone, weekly, holidays, closed_text, updated_at)
     VALUES ($chatbot_id, $timezone, $weekly, $holidays, $closed_text, $updated_at)
     ON CONFLICT (chatbot_id) DO UPDATE SET timezone = excluded.timezone, weekly = excluded.weekly, holidays = excluded.holidays,
       closed_text = excluded.closed_text, updated_at = excluded.updated_at`,
  )
  const remove = db.query<{ chatbot_id: string }, [string]>('DELETE FROM business_hours WHERE chatbot_id = ? RETURNING chatbot_id')
  return {
    chatbotInWorkspace: (workspaceId, chatbotId) => settled(() => chatbot.get(chatbotId, workspaceId) !== null),
    get: (chatbotId) => settled(() => get.get(chatbotId) ?? undefined),
    put: (row) => settled(() => void put.run({ ...row })),
    remove: (chatbotId) => settled(() => remove.all(chatbotId).length > 0),
  }
}
