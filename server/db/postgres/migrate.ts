import type { SQL } from 'bun'
import type { MigrationReport } from '../migrate.ts'
import type { PostgresMigration } from './migration.ts'
import { postgresMigrations } from './migrations/index.ts'

/** The advisory lock every node takes while it migrates: two nodes starting at once apply each migration once. */
const MIGRATION_LOCK = 7_265_836_915

/**
 * Applies, in order and each in its own transaction, every migration the database has not
 * recorded yet, as the SQLite runner does (server/db/migrate.ts): same `schema_migrations`
 * table, same refusal of a database written by a newer Parley. Each transaction holds an
 * advisory lock and looks again at what is recorded, so nodes started together never apply
 * one twice; a migration may take long (an index on a big table): no statement timeout.
 */
export async function migratePostgres(sql: SQL, migrations: readonly PostgresMigration[] = postgresMigrations): Promise<MigrationReport> {
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1]
    if (previous && migration.id <= previous.id) throw new Error(`migration ${migration.id} (${migration.name}) is out of order`)
  })
  const done = await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`
    return new Set((await tx<{ id: number }[]>`SELECT id FROM schema_migrations`).map((row) => row.id))
  })
  const newest = migrations.at(-1)?.id ?? 0
  const unknown = [...done].filter((id) => id > newest)
  if (unknown.length > 0) {
    throw new Error(`the database has migration ${Math.max(...unknown)} but this Parley knows only up to ${newest}: use a newer Parley`)
  }
  const applied: string[] = []
  for (const migration of migrations) {
    if (done.has(migration.id)) continue
    const ran = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      await tx`SET LOCAL statement_timeout = 0`
      if ((await tx`SELECT 1 FROM schema_migrations WHERE id = ${migration.id}`).length > 0) return false
      await tx.unsafe(migration.sql)
      await tx`INSERT INTO schema_migrations (id, name, applied_at) VALUES (${migration.id}, ${migration.name}, ${new Date().toISOString()})`
      return true
    })
    if (ran) applied.push(`${String(migration.id).padStart(4, '0')}_${migration.name}`)
  }
  return { applied }
}
