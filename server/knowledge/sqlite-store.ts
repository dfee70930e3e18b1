import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import { foldText } from './search-terms.ts'
import type { ClaimedSource, KnowledgeStore, PassageHit, SourceRecord, SourceRow } from './store.ts'

const ROW = 'id, chatbot_id, type, title, size_bytes, status, failure, passages, created_at, updated_at, indexed_at'
/** bm25's column weights: a word in the title (source title and headings) counts twice one in the text. */
const RANK = 'bm25(knowledge_passage_search, 2.0, 1.0)'

export function sqliteKnowledgeStore(db: Database): KnowledgeStore {
  const chatbotInWorkspace = db.query<{ id: string }, [string, string]>('SELECT id FROM chatbots WHERE id = ? AND workspace_id = ?')
  const totals = db.query<{ sources: number; bytes: number }, [string]>(
    'SELECT count(*) AS sources, coalesce(sum(size_bytes), 0) AS bytes FROM knowledge_sources WHERE chatbot_id = ?',
  )
  const insert = db.query(
    `INSERT INTO knowledge_sources (id, chatbot_id, type, title, content, size_bytes, status, failure, passages, created_at, updated_at, indexed_at)
     VALUES ($id, $chatbot_id, $type, $title, $content, $size_bytes, $status, $failure, $passages, $created_at, $updated_at, $indexed_at)`,
  )
  const selectOne = db.query<SourceRecord, [string, string]>(`SELECT ${ROW}, content FROM knowledge_sources WHERE id = ? AND chatbot_id = ?`)
  const selectPage = db.query<SourceRow, [string, number, number]>(
    `SELECT ${ROW} FROM knowledge_sources WHERE chatbot_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  )
  const remove = db.query<{ id: string }, [string, string]>('DELETE FROM knowledge_sources WHERE id = ? AND chatbot_id = ? RETURNING id')
  const requeue = db.query<SourceRow, [string, string, string]>(
    `UPDATE knowledge_sources SET status = 'queued', failure = NULL, claim = NULL, lease_until = NULL, attempts = 0, updated_at = ?
     WHERE id = ? AND chatbot_id = ? RETURNING ${ROW}`,
  )
  const nextToIndex = db.query<{ id: string }, [string]>(
    `SELECT id FROM knowledge_sources WHERE status IN ('queued', 'indexing') AND (status = 'queued' OR lease_until < ?)
     ORDER BY updated_at, id LIMIT 1`,
  )
  const claim = db.query<ClaimedSource, [string, string, string, string]>(
    `UPDATE knowledge_sources SET status = 'indexing', claim = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
     WHERE id = ? RETURNING id, chatbot_id, type, title, content, attempts`,
  )
  const backlog = db.query<{ claimable: number; indexing: number }, [string]>(
    `SELECT coalesce(sum(status = 'queued' OR lease_until < ?), 0) AS claimable, coalesce(sum(status = 'indexing'), 0) AS indexing
     FROM knowledge_sources WHERE status IN ('queued', 'indexing')`,
  )
  const requeueInterrupted = db.query<null, [string]>(
    "UPDATE knowledge_sources SET status = 'queued', claim = NULL, lease_until = NULL, updated_at = ? WHERE status = 'indexing'",
  )
  const claimed = db.query<{ chatbot_id: string; title: string }, [string, string]>(
    "SELECT chatbot_id, title FROM knowledge_sources WHERE id = ? AND claim = ? AND status = 'indexing'",
  )
  const deletePassages = db.query<null, [string]>('DELETE FROM knowledge_passages WHERE source_id = ?')
  const insertPassage = db.query<{ rowid: number }, [string, number, string, string, string, string]>(
    'INSERT INTO knowledge_passages (source_id, ordinal, chatbot_id, heading, anchor, text) VALUES (?, ?, ?, ?, ?, ?) RETURNING rowid',
  )
  const indexPassage = db.query<null, [number, string, string]>('INSERT INTO knowledge_passage_search (rowid, title, text) VALUES (?, ?, ?)')
  const markReady = db.query<null, [number, string, string, string]>(
    "UPDATE knowledge_sources SET status = 'ready', failure = NULL, passages = ?1, claim = NULL, lease_until = NULL, indexed_at = ?2, updated_at = ?2 WHERE id = ?3 AND claim = ?4",
  )
  const markFailed = db.query<{ id: string }, [string, string, string, string]>(
    "UPDATE knowledge_sources SET status = 'failed', failure = ?, claim = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND claim = ? AND status = 'indexing' RETURNING id",
  )
  const search = db.query<PassageHit, [string, string, number]>(
    `SELECT p.source_id, s.title, p.heading, p.anchor, p.text, p.ordinal, -${RANK} AS score
     FROM knowledge_passage_search JOIN knowledge_passages p ON p.rowid = knowledge_passage_search.rowid
     JOIN knowledge_sources s ON s.id = p.source_id
     WHERE knowledge_passage_search MATCH ? AND p.chatbot_id = ?
     ORDER BY ${RANK}, p.rowid LIMIT ?`,
  )

  return {
    chatbotExists: (workspaceId, chatbotId) => settled(() => chatbotInWorkspace.get(chatbotId, workspaceId) !== null),
    totals: (chatbotId) => settled(() => totals.get(chatbotId) ?? { sources: 0, bytes: 0 }),
    insert: (source) => settled(() => void insert.run({ ...source })),
    get: (chatbotId, id) => settled(() => selectOne.get(id, chatbotId) ?? undefined),
    list: (chatbotId, page) =>
      settled(() => ({ items: selectPage.all(chatbotId, page.limit, page.offset), total: totals.get(chatbotId)?.sources ?? 0 })),
    remove: (chatbotId, id) => settled(() => remove.get(id, chatbotId) !== null),
    requeue: (chatbotId, id, at) => settled(() => requeue.get(at, id, chatbotId) ?? undefined),
    // One writer: nothing can take the row between the two statements.
    claimNext: (at, leaseUntil, token) =>
      settled(() => {
        const next = nextToIndex.get(at)
        return next ? (claim.get(token, leaseUntil, at, next.id) ?? undefined) : undefined
      }),
    backlog: (at) => settled(() => backlog.get(at) ?? { claimable: 0, indexing: 0 }),
    requeueInterrupted: (at) => settled(() => requeueInterrupted.run(at).changes),
    finish: (id, token, passages, at) =>
      settled(() => {
        const source = claimed.get(id, token)
        if (!source) return false
        deletePassages.run(id)
        passages.forEach((passage, ordinal) => {
          const row = insertPassage.get(id, ordinal, source.chatbot_id, passage.heading, passage.anchor, passage.text)
          if (row) indexPassage.run(row.rowid, foldText(`${source.title} ${passage.heading}`), foldText(passage.text))
        })
        markReady.run(passages.length, at, id, token)
        return true
      }),
    fail: (id, token, reason, at) => settled(() => markFailed.get(reason, at, id, token) !== null),
    search: (chatbotId, terms, limit) =>
      settled(() => (terms.length === 0 ? [] : search.all(terms.map((term) => `"${term}"`).join(' OR '), chatbotId, limit))),
  }
}
