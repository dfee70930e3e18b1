/**
 * A PostgreSQL migration: the twin of the SQLite migration with the same id and name
 * (server/db/migrations/), as SQL run in one transaction. The twins leave the same tables and
 * columns (test/db/postgres/migration-track.test.ts); where SQLite has something PostgreSQL lacks
 * (rowid, FTS5, json_extract in triggers) the twin says what stands in for it.
 */
export interface PostgresMigration {
  id: number
  name: string
  sql: string
}
