import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { openDatabase } from '../db/open-database.ts'
import { PARTIAL_SUFFIX } from './backup-files.ts'

export interface WrittenBackup {
  file: string
  bytes: number
  /** The newest migration the copy has: `parley restore` compares it with its own. */
  schemaVersion: number
}

const SQLITE_HEADER = 'SQLite format 3\0'

/**
 * Writes a consistent copy of the live database with VACUUM INTO (it reads one snapshot under
 * WAL, so it is safe while the server keeps writing), checks the copy's integrity, and only
 * then gives it its name: a file under `target`'s name is always a whole, checked backup. The
 * copy is private to its owner. Blocks its thread for as long as it reads the database: the
 * server runs it in a thread of its own (backup-thread.ts).
 */
export function writeBackup(databaseFile: string, target: string): WrittenBackup {
  if (!existsSync(databaseFile)) throw new Error(`no database at ${databaseFile}; check PARLEY_DATA_DIR`)
  const destination = resolve(target)
  if (existsSync(destination)) throw new Error(`${destination} already exists; choose a new file name`)
  // `parley backup /backups/$(date +%F).db` on a new machine: the folder is made, private to its owner.
  try {
    mkdirSync(dirname(destination), { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new Error(`cannot create the folder ${dirname(destination)}: ${(error as Error).message}`)
  }
  const partial = `${destination}${PARTIAL_SUFFIX}`
  try {
    // VACUUM INTO takes an empty file: made first, so the copy is never readable by others.
    writeFileSync(partial, '', { mode: 0o600 })
    chmodSync(partial, 0o600)
    const db = openDatabase(databaseFile)
    try {
      db.query('VACUUM INTO ?').run(partial)
    } finally {
      db.close()
    }
    const { schemaVersion } = verifyBackup(partial)
    renameSync(partial, destination)
    return { file: destination, bytes: statSync(destination).size, schemaVersion }
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
}

/**
 * Checks that a file is a whole Parley database: SQLite's own header, `PRAGMA
 * integrity_check` (every page, index and constraint), and a schema_migrations table, whose
 * newest migration is returned. Opened read-only: a file being checked is never changed.
 */
export function verifyBackup(file: string): { schemaVersion: number } {
  if (!existsSync(file)) throw new Error(`no file at ${file}`)
  if (readHeader(file) !== SQLITE_HEADER) throw new Error(`${file} is not a SQLite database`)
  let db: Database
  try {
    db = new Database(file, { readonly: true, strict: true })
  } catch (error) {
    throw new Error(`${file} cannot be opened: ${(error as Error).message}`)
  }
  try {
    let problems: string[]
    try {
      problems = db
        .query<{ integrity_check: string }, []>('PRAGMA integrity_check')
        .all()
        .map((row) => row.integrity_check)
    } catch (error) {
      problems = [(error as Error).message]
    }
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw new Error(`${file} failed its integrity check: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; ...' : ''}`)
    }
    const tracked = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get()
    if (!tracked) throw new Error(`${file} is not a Parley database (it has no schema_migrations table)`)
    const newest = db.query<{ id: number | null }, []>('SELECT max(id) AS id FROM schema_migrations').get()?.id ?? 0
    return { schemaVersion: newest }
  } finally {
    db.close()
  }
}

function readHeader(file: string): string {
  const fd = openSync(file, 'r')
  try {
    const bytes = new Uint8Array(SQLITE_HEADER.length)
    const read = readSync(fd, bytes, 0, bytes.length, 0)
    return new TextDecoder('latin1').decode(bytes.subarray(0, read))
  } finally {
    closeSync(fd)
  }
}
