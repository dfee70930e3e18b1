import type { Database } from 'bun:sqlite'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Chatbot } from './model.ts'

/** As stored: `llm` is the model settings' JSON, api key included. */
export type StoredChatbot = Omit<Chatbot, 'llm'> & { llm: string | null }
export type ChatbotRow = StoredChatbot & { workspace_id: string }

const COLUMNS = 'id, name, entry_flow_id, llm, created_at, updated_at'

export type ChatbotStore = ReturnType<typeof chatbotStore>

export function chatbotStore(db: Database) {
  const insert = db.query(
    `INSERT INTO chatbots (id, workspace_id, name, entry_flow_id, llm, created_at, updated_at)
     VALUES ($id, $workspace_id, $name, $entry_flow_id, $llm, $created_at, $updated_at)`,
  )
  const selectOne = db.query<StoredChatbot, [string, string]>(
    `SELECT ${COLUMNS} FROM chatbots WHERE id = ? AND workspace_id = ?`,
  )
  const selectPage = db.query<StoredChatbot, [string, number, number]>(
    `SELECT ${COLUMNS} FROM chatbots WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  )
  const count = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM chatbots WHERE workspace_id = ?')
  const update = db.query<StoredChatbot, [string, string | null, string | null, string, string, string]>(
    `UPDATE chatbots SET name = ?, entry_flow_id = ?, llm = ?, updated_at = ? WHERE id = ? AND workspace_id = ?
     RETURNING ${COLUMNS}`,
  )
  const remove = db.query<{ id: string }, [string, string]>(
    'DELETE FROM chatbots WHERE id = ? AND workspace_id = ? RETURNING id',
  )

  return {
    insert: (row: ChatbotRow) => void insert.run(row),
    get: (workspaceId: string, id: string) => selectOne.get(id, workspaceId),
    list(workspaceId: string, page: Page): PageOf<StoredChatbot> {
      return {
        items: selectPage.all(workspaceId, page.limit, page.offset),
        total: count.get(workspaceId)?.n ?? 0,
      }
    },
    update: (workspaceId: string, bot: StoredChatbot) =>
      update.get(bot.name, bot.entry_flow_id, bot.llm, bot.updated_at ?? bot.created_at, bot.id, workspaceId),
    remove: (workspaceId: string, id: string) => remove.get(id, workspaceId) !== null,
  }
}
