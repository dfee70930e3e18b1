import type { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../server/db/migrate.ts'
import { migrations } from '../../server/db/migrations/index.ts'
import { openDatabase } from '../../server/db/open-database.ts'
import { migratedDatabase } from './migrated-database.ts'

const dirs: string[] = []

/**
 * A database file in a temporary directory, migrated up to `before` (exclusive; all when
 * absent), holding workspace `W`, its chatbot `B` and contact `P`, for store and migration
 * tests that write their own rows around them. `removeSeededDatabases` in afterEach.
 */
export function seededDatabase({ before, at = '2026-01-01T00:00:00.000Z' }: { before?: number; at?: string } = {}): Database {
  const dir = mkdtempSync(join(tmpdir(), 'parley-seeded-'))
  dirs.push(dir)
  const file = join(dir, 'parley.db')
  let db: Database
  if (before === undefined) db = migratedDatabase(file)
  else {
    db = openDatabase(file)
    migrate(db, migrations.filter((m) => m.id < before))
  }
  db.exec(`
    INSERT INTO workspaces VALUES ('W', 'w', '${at}');
    INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}');
    INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('P', 'B', '${at}');
  `)
  return db
}

export function removeSeededDatabases(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}
