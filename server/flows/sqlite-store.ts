import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { FlowListItem, FlowType } from './model.ts'
import type { FlowRow, FlowStore, StoredSnapshot } from './store.ts'

const LIST_COLUMNS = 'f.id, f.chatbot_id, f.name, f.type, f.status, f.created_at'
const FULL_COLUMNS = `f.id, f.chatbot_id, f.name, f.type, f.status, f.created_at, f.updated_at, f.published_at,
  f.published_version, f.definition,
  (f.published_version IS NOT NULL AND f.definition IS NOT v.definition) AS has_unpublished_changes`
const LIVE_VERSION = 'LEFT JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version'
const SNAPSHOT_COLUMNS = 'f.id AS flow_id, f.chatbot_id, f.type, v.version, v.published_at, v.definition'

export function sqliteFlowStore(db: Database): FlowStore {
  const chatbotInWorkspace = db.query<{ id: string }, [string, string]>('SELECT id FROM chatbots WHERE id = ? AND workspace_id = ?')
  const insert = db.query(
    `INSERT INTO flows (id, chatbot_id, name, type, status, created_at, updated_at, published_at, published_version, definition)
     VALUES ($id, $chatbot_id, $name, $type, $status, $created_at, $updated_at, $published_at, $published_version, $definition)`,
  )
  const selectOne = db.query<FlowRow, [string, string]>(
    `SELECT ${FULL_COLUMNS} FROM flows f ${LIVE_VERSION} WHERE f.id = ? AND f.chatbot_id = ?`,
  )
  const selectPage = db.query<FlowListItem, [string, number, number]>(
    `SELECT ${LIST_COLUMNS} FROM flows f WHERE f.chatbot_id = ? ORDER BY f.created_at DESC, f.id DESC LIMIT ? OFFSET ?`,
  )
  const count = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM flows WHERE chatbot_id = ?')
  const update = db.query<null, [string, string, string, string, string]>(
    'UPDATE flows SET name = ?, definition = ?, updated_at = ? WHERE id = ? AND chatbot_id = ?',
  )
  const flowExists = db.query<{ id: string }, [string]>('SELECT id FROM flows WHERE id = ?')
  const nextVersion = db.query<{ version: number }, [string]>(
    'SELECT coalesce(max(version), 0) + 1 AS version FROM flow_versions WHERE flow_id = ?',
  )
  const insertVersion = db.query<null, [string, number, string, string]>(
    'INSERT INTO flow_versions (flow_id, version, published_at, definition) VALUES (?, ?, ?, ?)',
  )
  const markPublished = db.query<null, [string, number, string]>(
    "UPDATE flows SET status = 'published', published_at = ?3, published_version = ?2 WHERE id = ?1",
  )
  const remove = db.query<{ id: string }, [string, string]>('DELETE FROM flows WHERE id = ? AND chatbot_id = ? RETURNING id')
  const clearEntryFlow = db.query<null, [string, string, string]>(
    'UPDATE chatbots SET entry_flow_id = NULL, updated_at = ? WHERE id = ? AND entry_flow_id = ?',
  )
  const kind = db.query<{ type: FlowType }, [string, string]>('SELECT type FROM flows WHERE id = ? AND chatbot_id = ?')
  const summaries = db.query<{ id: string; type: FlowType; published: 0 | 1 }, [string]>(
    'SELECT id, type, published_version IS NOT NULL AS published FROM flows WHERE chatbot_id = ?',
  )
  const liveSnapshot = db.query<StoredSnapshot, [string]>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM flows f JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version WHERE f.id = ?`,
  )
  const versionSnapshot = db.query<StoredSnapshot, [string, number]>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM flows f JOIN flow_versions v ON v.flow_id = f.id WHERE f.id = ? AND v.version = ?`,
  )
  const entryFlowVersion = db.query<{ flow_id: string; version: number }, [string]>(
    `SELECT f.id AS flow_id, v.version FROM chatbots c
     JOIN flows f ON f.id = c.entry_flow_id AND f.chatbot_id = c.id AND f.type = 'conversation'
     JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
     WHERE c.id = ?`,
  )
  // A new row's rowid is one more than the largest in the table, so the live version with the
  // largest rowid is the one published last, whatever the clock said.
  const latestConversationVersion = db.query<{ flow_id: string; version: number }, [string]>(
    `SELECT f.id AS flow_id, v.version FROM flows f
     JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
     WHERE f.chatbot_id = ? AND f.type = 'conversation'
     ORDER BY v.rowid DESC LIMIT 1`,
  )
  const versionList = db.query<{ version: number; published_at: string }, [string]>(
    'SELECT version, published_at FROM flow_versions WHERE flow_id = ? ORDER BY version DESC',
  )

  return {
    chatbotExists: (workspaceId, chatbotId) => settled(() => chatbotInWorkspace.get(chatbotId, workspaceId) !== null),
    versions: (id) => settled(() => versionList.all(id)),
    insert: (record) => settled(() => void insert.run({ ...record })),
    get: (chatbotId, id) => settled(() => selectOne.get(id, chatbotId) ?? undefined),
    list: (chatbotId, page) =>
      settled(() => ({ items: selectPage.all(chatbotId, page.limit, page.offset), total: count.get(chatbotId)?.n ?? 0 })),
    update: (chatbotId, id, change) => settled(() => void update.run(change.name, change.definition, change.updated_at, id, chatbotId)),
    // One writer: the flow cannot go or gain a version between these statements. The check
    // comes first so that a flow deleted meanwhile fails no statement (which would roll back the batch).
    publish: (id, definition, publishedAt) =>
      settled(() => {
        if (!flowExists.get(id)) return null
        const version = nextVersion.get(id)?.version ?? 1
        insertVersion.run(id, version, publishedAt, definition)
        markPublished.run(id, version, publishedAt)
        return version
      }),
    remove: (chatbotId, id, now) =>
      settled(() => {
        if (!remove.get(id, chatbotId)) return false
        clearEntryFlow.run(now, chatbotId, id)
        return true
      }),
    kind: (chatbotId, id) => settled(() => kind.get(id, chatbotId)?.type),
    summaries: (chatbotId) =>
      settled(() => summaries.all(chatbotId).map((row) => ({ id: row.id, type: row.type, published: row.published === 1 }))),
    liveSnapshot: (id) => settled(() => liveSnapshot.get(id) ?? undefined),
    versionSnapshot: (id, version) => settled(() => versionSnapshot.get(id, version) ?? undefined),
    entryVersion: (chatbotId) => settled(() => entryFlowVersion.get(chatbotId) ?? latestConversationVersion.get(chatbotId) ?? undefined),
  }
}
