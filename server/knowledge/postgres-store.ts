import type { SQL } from 'bun'
import { foldText } from './search-terms.ts'
import type { ClaimedSource, KnowledgeStore, PassageHit, SourceRecord, SourceRow } from './store.ts'

/**
 * The same rows as the SQLite side: text sorts in byte order (COLLATE "C"), counts cast to int.
 * The search index holds tsvectors made here from folded text (english stems; the title weighted
 * A, the text B), ranked by ts_rank: scores are not BM25's, the order on clear cases is the same.
 */
export function postgresKnowledgeStore(sql: SQL): KnowledgeStore {
  const one = async <Row>(rows: Promise<Row[]>) => (await rows)[0]
  return {
    async chatbotExists(workspaceId, chatbotId) {
      const rows = await sql`SELECT id FROM chatbots WHERE id = ${chatbotId} AND workspace_id = ${workspaceId}`
      return rows.length > 0
    },
    async totals(chatbotId) {
      const [row] = await sql<{ sources: number; bytes: number }[]>`
        SELECT count(*)::int AS sources, coalesce(sum(size_bytes), 0)::bigint AS bytes FROM knowledge_sources WHERE chatbot_id = ${chatbotId}`
      return { sources: row?.sources ?? 0, bytes: Number(row?.bytes ?? 0) }
    },
    async insert(s) {
      await sql`INSERT INTO knowledge_sources (id, chatbot_id, type, title, content, size_bytes, status, failure, passages, created_at, updated_at, indexed_at)
        VALUES (${s.id}, ${s.chatbot_id}, ${s.type}, ${s.title}, ${s.content}, ${s.size_bytes}, ${s.status}, ${s.failure}, ${s.passages}, ${s.created_at}, ${s.updated_at}, ${s.indexed_at})`
    },
    get: (chatbotId, id) =>
      one(sql<SourceRecord[]>`SELECT id, chatbot_id, type, title, size_bytes, status, failure, passages, created_at, updated_at, indexed_at, content
        FROM knowledge_sources WHERE id = ${id} AND chatbot_id = ${chatbotId}`),
    async list(chatbotId, page) {
      const [items, total] = await Promise.all([
        sql<SourceRow[]>`SELECT id, chatbot_id, type, title, size_bytes, status, failure, passages, created_at, updated_at, indexed_at
          FROM knowledge_sources WHERE chatbot_id = ${chatbotId}
          ORDER BY created_at COLLATE "C" DESC, id COLLATE "C" DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
        sql<{ n: number }[]>`SELECT count(*)::int AS n FROM knowledge_sources WHERE chatbot_id = ${chatbotId}`,
      ])
      return { items: [...items], total: total[0]?.n ?? 0 }
    },
    async remove(chatbotId, id) {
      const rows = await sql`DELETE FROM knowledge_sources WHERE id = ${id} AND chatbot_id = ${chatbotId} RETURNING id`
      return rows.length > 0
    },
    requeue: (chatbotId, id, at) =>
      one(sql<SourceRow[]>`UPDATE knowledge_sources SET status = 'queued', failure = NULL, claim = NULL, lease_until = NULL, attempts = 0, updated_at = ${at}
        WHERE id = ${id} AND chatbot_id = ${chatbotId}
        RETURNING id, chatbot_id, type, title, size_bytes, status, failure, passages, created_at, updated_at, indexed_at`),
    claimNext: (at, leaseUntil, claim) =>
      one(sql<ClaimedSource[]>`UPDATE knowledge_sources SET status = 'indexing', claim = ${claim}, lease_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${at}
        WHERE id = (
          SELECT id FROM knowledge_sources WHERE status IN ('queued', 'indexing') AND (status = 'queued' OR lease_until COLLATE "C" < ${at})
          ORDER BY updated_at COLLATE "C", id COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, chatbot_id, type, title, content, attempts`),
    async backlog(at) {
      const [row] = await sql<{ claimable: number; indexing: number }[]>`
        SELECT count(*) FILTER (WHERE status = 'queued' OR lease_until COLLATE "C" < ${at})::int AS claimable,
          count(*) FILTER (WHERE status = 'indexing')::int AS indexing
        FROM knowledge_sources WHERE status IN ('queued', 'indexing')`
      return { claimable: row?.claimable ?? 0, indexing: row?.indexing ?? 0 }
    },
    async requeueInterrupted(at) {
      const rows = await sql`UPDATE knowledge_sources SET status = 'queued', claim = NULL, lease_until = NULL, updated_at = ${at} WHERE status = 'indexing' RETURNING id`
      return rows.length
    },
    async finish(id, claim, passages, at) {
      const [source] = await sql<{ chatbot_id: string; title: string }[]>`
        SELECT chatbot_id, title FROM knowledge_sources WHERE id = ${id} AND claim = ${claim} AND status = 'indexing' FOR UPDATE`
      if (!source) return false
      await sql`DELETE FROM knowledge_passages WHERE source_id = ${id}`
      if (passages.length > 0) {
        const rows = JSON.stringify(
          passages.map((passage, ordinal) => ({
            ordinal,
            heading: passage.heading,
            anchor: passage.anchor,
            text: passage.text,
            title_words: foldText(`${source.title} ${passage.heading}`),
            text_words: foldText(passage.text),
          })),
        )
        // One round trip for the passages and their vectors, however many there are.
        await sql`
          WITH given AS (
            SELECT * FROM jsonb_to_recordset(${rows}::text::jsonb) AS x(ordinal integer, heading text, anchor text, text text, title_words text, text_words text)
          ), stored AS (
            INSERT INTO knowledge_passages (source_id, ordinal, chatbot_id, heading, anchor, text)
            SELECT ${id}, ordinal, ${source.chatbot_id}, heading, anchor, text FROM given RETURNING rowid, ordinal
          )
          INSERT INTO knowledge_passage_search (rowid, title, text)
          SELECT stored.rowid, setweight(to_tsvector('english', given.title_words), 'A'), setweight(to_tsvector('english', given.text_words), 'B')
          FROM stored JOIN given USING (ordinal)`
      }
      await sql`UPDATE knowledge_sources SET status = 'ready', failure = NULL, passages = ${passages.length}, claim = NULL, lease_until = NULL,
        indexed_at = ${at}, updated_at = ${at} WHERE id = ${id}`
      return true
    },
    async fail(id, claim, reason, at) {
      const rows = await sql`UPDATE knowledge_sources SET status = 'failed', failure = ${reason}, claim = NULL, lease_until = NULL, updated_at = ${at}
        WHERE id = ${id} AND claim = ${claim} AND status = 'indexing' RETURNING id`
      return rows.length > 0
    },
    async search(chatbotId, terms, limit) {
      if (terms.length === 0) return []
      const rows = await sql<PassageHit[]>`
        SELECT p.source_id, s.title, p.heading, p.anchor, p.text, p.ordinal, ts_rank(k.title || k.text, q) AS score
        FROM to_tsquery('english', ${terms.join(' | ')}) q, knowledge_passage_search k
        JOIN knowledge_passages p ON p.rowid = k.rowid JOIN knowledge_sources s ON s.id = p.source_id
        WHERE (k.title || k.text) @@ q AND p.chatbot_id = ${chatbotId}
        ORDER BY score DESC, p.rowid LIMIT ${limit}`
      return rows.map((row) => ({ ...row, score: Number(row.score) }))
    },
  }
}
