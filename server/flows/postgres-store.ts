import type { SQL } from 'bun'
import type { FlowListItem, FlowType } from './model.ts'
import type { FlowRow, FlowStore, StoredSnapshot } from './store.ts'

/**
 * The same SQL as the SQLite side: text sorts in byte order (COLLATE "C"), flags and counts
 * cast to int, `rowid` the explicit identity column of flow_versions (migration 0003). A publish
 * locks the flow's row before it numbers the version: two nodes publishing one flow at once
 * take turns, and the second reads the first one's version in its own statement.
 */
export function postgresFlowStore(sql: SQL): FlowStore {
  const one = async <Row>(rows: Promise<Row[]>) => (await rows)[0]
  const all = async <Row>(rows: Promise<Row[]>) => [...(await rows)]
  return {
    async chatbotExists(workspaceId, chatbotId) {
      const rows = await sql`SELECT id FROM chatbots WHERE id = ${chatbotId} AND workspace_id = ${workspaceId}`
      return rows.length > 0
    },
    versions: (id) => all(sql`SELECT version, published_at FROM flow_versions WHERE flow_id = ${id} ORDER BY version DESC`),
    async insert(r) {
      await sql`INSERT INTO flows (id, chatbot_id, name, type, status, created_at, updated_at, published_at, published_version, definition)
        VALUES (${r.id}, ${r.chatbot_id}, ${r.name}, ${r.type}, ${r.status}, ${r.created_at}, ${r.updated_at}, ${r.published_at}, ${r.published_version}, ${r.definition})`
    },
    get: (chatbotId, id) =>
      one(sql<FlowRow[]>`SELECT f.id, f.chatbot_id, f.name, f.type, f.status, f.created_at, f.updated_at, f.published_at,
          f.published_version, f.definition,
          (f.published_version IS NOT NULL AND f.definition IS DISTINCT FROM v.definition)::int AS has_unpublished_changes
        FROM flows f LEFT JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
        WHERE f.id = ${id} AND f.chatbot_id = ${chatbotId}`),
    async list(chatbotId, page) {
      const [items, [counted]] = await Promise.all([
        all(sql<FlowListItem[]>`SELECT f.id, f.chatbot_id, f.name, f.type, f.status, f.created_at FROM flows f WHERE f.chatbot_id = ${chatbotId}
          ORDER BY f.created_at COLLATE "C" DESC, f.id COLLATE "C" DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
        sql<{ n: number }[]>`SELECT count(*)::int AS n FROM flows WHERE chatbot_id = ${chatbotId}`,
      ])
      return { items, total: counted?.n ?? 0 }
    },
    async update(chatbotId, id, change) {
      await sql`UPDATE flows SET name = ${change.name}, definition = ${change.definition}, updated_at = ${change.updated_at}
        WHERE id = ${id} AND chatbot_id = ${chatbotId}`
    },
    async publish(id, definition, publishedAt) {
      // The lock first, in a statement of its own: the numbering below then runs on a snapshot
      // taken after it, which sees the version of a publish that held the lock before.
      const locked = await sql`SELECT id FROM flows WHERE id = ${id} FOR UPDATE`
      if (locked.length === 0) return null
      const [row] = await sql<{ version: number }[]>`
        WITH v AS (
          INSERT INTO flow_versions (flow_id, version, published_at, definition)
          SELECT ${id}, coalesce(max(version), 0) + 1, ${publishedAt}, ${definition} FROM flow_versions WHERE flow_id = ${id}
          RETURNING version
        )
        UPDATE flows SET status = 'published', published_at = ${publishedAt}, published_version = v.version FROM v
        WHERE flows.id = ${id} RETURNING v.version`
      return row?.version ?? null
    },
    async remove(chatbotId, id, now) {
      const [row] = await sql<{ removed: number }[]>`
        WITH gone AS (DELETE FROM flows WHERE id = ${id} AND chatbot_id = ${chatbotId} RETURNING id),
          cleared AS (UPDATE chatbots SET entry_flow_id = NULL, updated_at = ${now}
            WHERE id = ${chatbotId} AND entry_flow_id IN (SELECT id FROM gone))
        SELECT count(*)::int AS removed FROM gone`
      return (row?.removed ?? 0) > 0
    },
    kind: async (chatbotId, id) => (await one(sql<{ type: FlowType }[]>`SELECT type FROM flows WHERE id = ${id} AND chatbot_id = ${chatbotId}`))?.type,
    summaries: async (chatbotId) =>
      (await all(sql<{ id: string; type: FlowType; published: boolean }[]>`
        SELECT id, type, published_version IS NOT NULL AS published FROM flows WHERE chatbot_id = ${chatbotId}`)).map((row) => ({
        id: row.id,
        type: row.type,
        published: row.published,
      })),
    liveSnapshot: (id) =>
      one(sql<StoredSnapshot[]>`SELECT f.id AS flow_id, f.chatbot_id, f.type, v.version, v.published_at, v.definition
        FROM flows f JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version WHERE f.id = ${id}`),
    versionSnapshot: (id, version) =>
      one(sql<StoredSnapshot[]>`SELECT f.id AS flow_id, f.chatbot_id, f.type, v.version, v.published_at, v.definition
        FROM flows f JOIN flow_versions v ON v.flow_id = f.id WHERE f.id = ${id} AND v.version = ${version}`),
    // The entry flow's live version, else the live conversation version inserted last: one round trip.
    entryVersion: (chatbotId) =>
      one(sql<{ flow_id: string; version: number }[]>`
        (SELECT f.id AS flow_id, v.version, 0 AS pick, 0::bigint AS rowid FROM chatbots c
          JOIN flows f ON f.id = c.entry_flow_id AND f.chatbot_id = c.id AND f.type = 'conversation'
          JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
          WHERE c.id = ${chatbotId})
        UNION ALL
        (SELECT f.id, v.version, 1, v.rowid FROM flows f
          JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
          WHERE f.chatbot_id = ${chatbotId} AND f.type = 'conversation'
          ORDER BY v.rowid DESC LIMIT 1)
        ORDER BY pick LIMIT 1`).then((row) => (row ? { flow_id: row.flow_id, version: row.version } : undefined)),
  }
}
