import type { Database } from 'bun:sqlite'
import type { Migration } from './migration.ts'
import { migrations as allMigrations } from './migrations/index.ts'

export interface MigrationReport {
  applied: string[]
}

/**
 * Applies, in order and each in its own transaction, every migration the database has not
 * recorded yet. A database written by a newer Parley is refused rather than guessed at.
 */
export function migrate(db: Database, migrations: readonly Migration[] = allMigrations): MigrationReport {
  assertOrdered(migrations)
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`)
  const done = new Set(
    db.query<{ id: number }, []>('SELECT id FROM schema_migrations').all().map((row) => row.id),
  )
  const newest = migrations.at(-1)?.id ?? 0
  const unknown = [...done].filter((id) => id > newest)
  if (unknown.length > 0) {
    throw new Error(
      `the database has migration ${Math.max(...unknown)} but this Parley knows only up to ${newest}: use a newer Parley`,
    )
  }
  const applied: string[] = []
  const record = db.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)')
  for (const migration of migrations) {
    if (done.has(migration.id)) continue
    db.transaction(() => {
      migration.up(db)
      record.run(migration.id, migration.name, new Date().toISOString())
    }).immediate()
    applied.push(`${String(migration.id).padStart(4, '0')}_${migration.name}`)
  }
  return { applied }
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1]
    if (previous && migration.id <= previous.id) {
      throw new Error(`migration ${migration.id} (${migration.name}) is out of order`)
    }
  })
}
