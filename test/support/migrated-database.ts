import type { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../server/db/migrate.ts'
import { openDatabase } from '../../server/db/open-database.ts'

let template: string | null = null

/**
 * A database file at `file` with every migration applied, opened as the server opens it: a
 * copy of one file this process migrated first. A test run makes hundreds of databases, and
 * migrating each from nothing cost more than the rest of a test app. `migrate` still runs on
 * the copy (and finds nothing left to apply), so a copy that fell behind would be brought up.
 */
export function migratedDatabase(file: string): Database {
  if (!template) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-template-'))
    const made = openDatabase(join(dir, 'parley.db'))
    migrate(made)
    // The WAL folded back: the file alone is the whole database. (No PRAGMA optimize: its
    // statistics would give the copies query plans a fresh database does not have.)
    made.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    made.close()
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    template = join(dir, 'parley.db')
  }
  copyFileSync(template, file)
  const db = openDatabase(file)
  migrate(db)
  return db
}
