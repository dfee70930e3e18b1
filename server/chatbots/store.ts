import type { Database } from 'bun:sqlite'
import { RowCache } from '../db/row-cache.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Chatbot } from './model.ts'

/** As stored: `llm` is the model settings' JSON, api key included. */
export type StoredChatbot = Omit<Chatbot, 'llm'> & { llm: string | null }
export type ChatbotRow = StoredChatbot & { workspace_id: string }

const COLUMNS = 'id, name, entry_flow_id, llm, created_at, updated_at'

export type ChatbotStore = ReturnType<typeof chatbotStore>

/** Chatbots kept in memory: every API call under /chatbots/{id} reads its chatbot first. */
const CACHED_CHATBOTS = 1000

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

  // Keyed by workspace and id, as it is read; changed here by this store's own writes, and
  // forgotten by the service when another domain's write changes a row (a deleted flow
  // leaves entry_flow_id) or a batch is rolled back.
  const cache = new RowCache<StoredChatbot>(CACHED_CHATBOTS)
  const keyOf = (workspaceId: string, id: string) => `${workspaceId}:${id}`
  return {
    insert: (row: ChatbotRow) => void insert.run(row),
    get(workspaceId: string, id: string): StoredChatbot | null {
      const row = cache.through(keyOf(workspaceId, id), () => selectOne.get(id, workspaceId) ?? undefined)
      return row ? { ...row } : null
    },
    list(workspaceId: string, page: Page): PageOf<StoredChatbot> {
      return {
        items: selectPage.all(workspaceId, page.limit, page.offset),
        total: count.get(workspaceId)?.n ?? 0,
      }
    },
    update(workspaceId: string, bot: StoredChatbot): StoredChatbot | null {
      const key = keyOf(workspaceId, bot.id)
      cache.delete(key)
      const row = update.get(bot.name, bot.entry_flow_id, bot.llm, bot.updated_at ?? bot.created_at, bot.id, workspaceId)
      if (row) cache.set(key, { ...row })
      return row
    },
    remove(workspaceId: string, id: string): boolean {
      cache.delete(keyOf(workspaceId, id))
      return remove.get(id, workspaceId) !== null
    },
    /** A write elsewhere changed rows behind the store (a deleted flow, a rolled-back batch): read them again. */
    forgetCached: () => cache.clear(),
  }
}
