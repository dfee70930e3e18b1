import type { SQL } from 'bun'
import type { OperationsStore } from './store.ts'

export function postgresOperationsStore(sql: SQL): OperationsStore {
  return {
    async ping() {
      await sql`SELECT 1`
    },
    async installationWorkspaceId() {
      // Byte order, as SQLite compares text.
      const [row] = await sql<{ id: string }[]>`SELECT id FROM workspaces ORDER BY created_at COLLATE "C", id COLLATE "C" LIMIT 1`
      return row?.id ?? null
    },
    async databaseBytes() {
      // int8 arrives as a string from Bun.sql: a float8 is exact up to 2^53 bytes.
      const [row] = await sql<{ bytes: number }[]>`SELECT pg_database_size(current_database())::float8 AS bytes`
      return row?.bytes ?? 0
    },
  }
}
