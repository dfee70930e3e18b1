import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

/** The page cache per connection, in KiB (SQLite's default is 2,000): up to this much more memory. */
export const PAGE_CACHE_KIB = 16_000

/** Opens (creating if needed) a SQLite file with the pragmas every Parley process relies on. */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file, { create: true, strict: true })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec('PRAGMA foreign_keys = ON')
  // A busy write batch (a few hundred chat turns, each touching a page of several indexes)
  // dirties more pages than SQLite's default 2 MB cache holds: past it SQLite spills them into
  // the WAL before the commit, and writes those touched again a second time at the commit.
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`)
  return db
}

/** Leaves the file tidy for a backup-by-copy: WAL folded back, statistics refreshed. */
export function closeDatabase(db: Database): void {
  try {
    db.exec('PRAGMA optimize')
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
}
