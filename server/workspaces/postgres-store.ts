import type { SQL } from 'bun'
import type { ApiKeyRow, WorkspaceRow, WorkspaceStore } from './store.ts'

export function postgresWorkspaceStore(sql: SQL): WorkspaceStore {
  const one = async <Row>(rows: Promise<Row[]>) => (await rows)[0]
  return {
    async insertWorkspace(row) {
      await sql`INSERT INTO workspaces (id, name, created_at) VALUES (${row.id}, ${row.name}, ${row.created_at})`
    },
    getWorkspace: (id) => one(sql<WorkspaceRow[]>`SELECT * FROM workspaces WHERE id = ${id}`),
    // Byte order, as SQLite compares text.
    firstWorkspace: () => one(sql<WorkspaceRow[]>`SELECT * FROM workspaces ORDER BY created_at COLLATE "C", id COLLATE "C" LIMIT 1`),
    async countWorkspaces() {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM workspaces`
      return row?.n ?? 0
    },
    async insertKey(row) {
      await sql`INSERT INTO api_keys (id, workspace_id, name, prefix, hash, created_at)
        VALUES (${row.id}, ${row.workspace_id}, ${row.name}, ${row.prefix}, ${row.hash}, ${row.created_at})`
    },
    findKeyByPrefix: (prefix) => one(sql<ApiKeyRow[]>`SELECT * FROM api_keys WHERE prefix = ${prefix}`),
    listKeys: async () => [...(await sql<ApiKeyRow[]>`SELECT * FROM api_keys ORDER BY created_at COLLATE "C", id COLLATE "C"`)],
    listKeysOf: async (workspaceId) => [
      ...(await sql<ApiKeyRow[]>`SELECT * FROM api_keys WHERE workspace_id = ${workspaceId} ORDER BY created_at COLLATE "C" DESC, id COLLATE "C" DESC`),
    ],
    revokeKey: (prefix, at) => one(sql<ApiKeyRow[]>`UPDATE api_keys SET revoked_at = ${at} WHERE prefix = ${prefix} AND revoked_at IS NULL RETURNING *`),
    revokeKeyOf: (workspaceId, prefix, at) =>
      one(sql<ApiKeyRow[]>`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at}) WHERE prefix = ${prefix} AND workspace_id = ${workspaceId} RETURNING *`),
    async touchKey(id, at) {
      await sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`
    },
  }
}
