import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import { foldText } from './search-terms.ts'
import type { ClaimedSource, KnowledgeStore, PassageHit, SourceRecord, SourceRow } from './store.ts'

const ROW = 'id, chatbot_id, type, title, size_bytes, status, failure, passages, created_at, updated_at, indexed_at'
/** bm25's column weights: a word in the title (source title and headings) counts twice one in the text. */
const RANK = 'bm25(knowledge_passage_search, 2.0, 1.0)'
/** A chatbot's passages have rowids (key << 32) | n (migration 0033). */
const IN_RANGE = (rowid: string, key: string) => `${rowid} BETWEEN (${key} << 32) + 1 AND ${RANGE_END(key)}`
const RANGE_END = (key: string) => `((${key} << 32) | 4294967295)`
const MAX_IN_RANGE = 4_294_967_295

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
  const addBase = db.query<null, [string]>('INSERT INTO knowledge_bases (chatbot_id) VALUES (?) ON CONFLICT (chatbot_id) DO NOTHING')
  const baseKey = db.query<{ key: number }, [string]>('SELECT key FROM knowledge_bases WHERE chatbot_id = ?')
  // Counted within the key's range: key << 32 itself may pass 2^53, a JavaScript number's exact range.
  const lastInRange = db.query<{ n: number }, [number]>(`SELECT coalesce(max(rowid) - (?1 << 32), 0) AS n FROM knowledge_passages WHERE ${IN_RANGE('rowid', '?1')}`)
  const insertPassage = db.query<null, [number, number, string, number, string, string, string, string]>(
    'INSERT INTO knowledge_passages (rowid, source_id, ordinal, chatbot_id, heading, anchor, text) VALUES ((?1 << 32) + ?2, ?3, ?4, ?5, ?6, ?7, ?8)',
  )
  const indexPassage = db.query<null, [string, string]>('INSERT INTO knowledge_passage_search (rowid, title, text) VALUES (last_insert_rowid(), ?, ?)')
  const markReady = db.query<null, [number, string, string, string]>(
    "UPDATE knowledge_sources SET status = 'ready', failure = NULL, passages = ?1, claim = NULL, lease_until = NULL, indexed_at = ?2, updated_at = ?2 WHERE id = ?3 AND claim = ?4",
  )
  const markFailed = db.query<{ id: string }, [string, string, string, string]>(
    "UPDATE knowledge_sources SET status = 'failed', failure = ?, claim = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND claim = ? AND status = 'indexing' RETURNING id",
  )
  const passageCount = db.query<{ n: number }, [string]>('SELECT coalesce(sum(passages), 0) AS n FROM knowledge_sources WHERE chatbot_id = ?')
  // The key is bound, not joined: FTS5 is given a rowid range only by a value known before it is read.
  const matches = db.query<{ n: number }, [string, number, number]>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM knowledge_passage_search WHERE knowledge_passage_search MATCH ?1 AND ${IN_RANGE('rowid', '?2')} LIMIT ?3)`,
  )
  // The chatbot's range of the index alone is read; only the best `limit` are joined to their rows.
  const search = db.query<PassageHit, [string, number, number, string]>(
    `WITH best AS (
       SELECT rowid, ${RANK} AS rank FROM knowledge_passage_search
       WHERE knowledge_passage_search MATCH ?1 AND ${IN_RANGE('rowid', '?2')}
       ORDER BY rank, rowid LIMIT ?3)
     SELECT p.source_id, s.title, p.heading, p.anchor, p.text, p.ordinal, -best.rank AS score
     FROM best JOIN knowledge_passages p ON p.rowid = best.rowid JOIN knowledge_sources s ON s.id = p.source_id
     WHERE p.chatbot_id = ?4
     ORDER BY best.rank, best.rowid`,
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
        addBase.run(source.chatbot_id)
        const key = baseKey.get(source.chatbot_id)?.key ?? 0
        const last = lastInRange.get(key)?.n ?? 0
        if (last + passages.length > MAX_IN_RANGE) throw new Error(`the chatbot ${source.chatbot_id} has no rowid left in its range of the knowledge index`)
        passages.forEach((passage, ordinal) => {
          insertPassage.run(key, last + 1 + ordinal, id, ordinal, source.chatbot_id, passage.heading, passage.anchor, passage.text)
          indexPassage.run(foldText(`${source.title} ${passage.heading}`), foldText(passage.text))
        })
        markReady.run(passages.length, at, id, token)
        return true
      }),
    fail: (id, token, reason, at) => settled(() => markFailed.get(reason, at, id, token) !== null),
    passageCount: (chatbotId) => settled(() => passageCount.get(chatbotId)?.n ?? 0),
    matchCounts: (chatbotId, terms, atMost) =>
      settled(() => {
        const key = baseKey.get(chatbotId)?.key
        return terms.map((term) => (key === undefined ? 0 : (matches.get(`"${term}"`, key, atMost)?.n ?? 0)))
      }),
    search: (chatbotId, terms, limit) =>
      settled(() => {
        const key = baseKey.get(chatbotId)?.key
        return terms.length === 0 || key === undefined ? [] : search.all(terms.map((term) => `"${term}"`).join(' OR '), key, limit, chatbotId)
      }),
  }
}
