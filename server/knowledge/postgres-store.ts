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
      await sql`INSERT INTO knowledge_bases (chatbot_id) VALUES (${source.chatbot_id}) ON CONFLICT (chatbot_id) DO NOTHING`
      // Held to the commit: two nodes writing one chatbot's passages take their rowids in turn.
      const [base] = await sql<{ key: string }[]>`SELECT key FROM knowledge_bases WHERE chatbot_id = ${source.chatbot_id} FOR UPDATE`
      if (!base) return false
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
        const [last] = await sql<{ last: string; end: string }[]>`
          SELECT coalesce(max(rowid), ${base.key}::bigint << 32)::text AS last, ((${base.key}::bigint << 32) | 4294967295)::text AS end
          FROM knowledge_passages WHERE rowid BETWEEN (${base.key}::bigint << 32) + 1 AND (${base.key}::bigint << 32) | 4294967295`
        if (!last || BigInt(last.last) + BigInt(passages.length) > BigInt(last.end)) {
          throw new Error(`the chatbot ${source.chatbot_id} has no rowid left in its range of the knowledge index`)
        }
        await sql`
          WITH given AS (
            SELECT * FROM jsonb_to_recordset(${rows}::text::jsonb) AS x(ordinal integer, heading text, anchor text, text text, title_words text, text_words text)
          ), stored AS (
            INSERT INTO knowledge_passages (rowid, source_id, ordinal, chatbot_id, heading, anchor, text)
            SELECT ${last.last}::bigint + 1 + ordinal, ${id}, ordinal, ${source.chatbot_id}, heading, anchor, text FROM given RETURNING rowid, ordinal
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
    async passageCount(chatbotId) {
      const [row] = await sql<{ n: number }[]>`SELECT coalesce(sum(passages), 0)::int AS n FROM knowledge_sources WHERE chatbot_id = ${chatbotId}`
      return row?.n ?? 0
    },
    async matchCounts(chatbotId, terms, atMost) {
      return Promise.all(
        terms.map(async (term) => {
          const [row] = await sql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM (SELECT 1 FROM knowledge_bases b, knowledge_passage_search k
              WHERE b.chatbot_id = ${chatbotId} AND k.rowid BETWEEN (b.key << 32) + 1 AND ((b.key << 32) | 4294967295) AND (k.title || k.text) @@ to_tsquery('english', ${term}) LIMIT ${atMost}) x`
          return row?.n ?? 0
        }),
      )
    },
    async search(chatbotId, terms, limit) {
      if (terms.length === 0) return []
      // The chatbot's range of the index first (its key's rowids), ranked there, then joined.
      const rows = await sql<PassageHit[]>`
        WITH best AS (
          SELECT k.rowid, ts_rank(k.title || k.text, q) AS score
          FROM knowledge_bases b, to_tsquery('english', ${terms.join(' | ')}) q, knowledge_passage_search k
          WHERE b.chatbot_id = ${chatbotId} AND k.rowid BETWEEN (b.key << 32) + 1 AND ((b.key << 32) | 4294967295) AND (k.title || k.text) @@ q
          ORDER BY score DESC, k.rowid LIMIT ${limit})
        SELECT p.source_id, s.title, p.heading, p.anchor, p.text, p.ordinal, best.score
        FROM best JOIN knowledge_passages p ON p.rowid = best.rowid JOIN knowledge_sources s ON s.id = p.source_id
        WHERE p.chatbot_id = ${chatbotId}
        ORDER BY best.score DESC, best.rowid`
      return rows.map((row) => ({ ...row, score: Number(row.score) }))
    },
  }
}
