import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { verifyBackup } from '../backups/write-backup.ts'

export interface RestoreOptions {
  dataDir: string
  backupFile: string
  /** The newest migration this Parley knows. */
  newestMigration: number
  /** For the name the replaced database is kept under. */
  now: Date
}

/**
 * `parley restore FILE`: puts a backup in place of $PARLEY_DATA_DIR/parley.db. The backup must
 * pass its integrity check and come from this Parley or an older one (its pending migrations
 * run at the next start); the database it replaces is kept beside it, never deleted; and
 * nothing is touched while any process has the database open (a running server). Returns the
 * lines to print.
 */
export function restore({ dataDir, backupFile, newestMigration, now }: RestoreOptions): string[] {
  const source = resolve(backupFile)
  const target = join(resolve(dataDir), 'parley.db')
  if (source === target) throw new Error(`${source} is the database itself; give the backup file to restore`)
  const { schemaVersion } = verifyBackup(source)
  if (schemaVersion > newestMigration) {
    throw new Error(`${source} was written by a newer Parley (its schema is at migration ${schemaVersion}; this Parley knows up to ${newestMigration}): restore it with that version or a newer one`)
  }
  mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 })
  const aside = existsSync(target) ? setAside(target, now) : null
  const incoming = `${target}.restoring`
  copyFileSync(source, incoming)
  chmodSync(incoming, 0o600)
  const fd = openSync(incoming, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(incoming, target)
  const lines = [`restored ${source} (schema at migration ${schemaVersion}) into ${target}`]
  lines.push(aside ? `the database it replaced is kept at ${aside}` : 'there was no database there before')
  if (schemaVersion < newestMigration) lines.push(`this Parley brings it up to migration ${newestMigration} when it next starts (an older Parley of its own version opens it as it is)`)
  lines.push('start Parley again (for example: systemctl start parley)')
  return lines
}

/**
 * Moves the current database aside, whole: with no other connection open (a server keeps one
 * open as long as it runs, so an exclusive lock is refused while it does), its write-ahead log
 * is folded in first, so the file kept is complete and no log is left beside the restored one.
 */
function setAside(target: string, now: Date): string {
  const db = new Database(target)
  try {
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    try {
      db.exec('BEGIN EXCLUSIVE')
      db.exec('COMMIT')
    } catch {
      throw new Error(`${target} is in use: a Parley server (or another parley command) has it open. Stop it first (for example: systemctl stop parley), then restore`)
    }
    db.query('PRAGMA wal_checkpoint(TRUNCATE)').get()
  } finally {
    db.close()
  }
  const aside = `${target}.before-restore-${now.toISOString().slice(0, 19).replace(/:/g, '-')}Z`
  renameSync(target, aside)
  // Left only by a crash between the checkpoint and the close: kept with the file it belongs to.
  if (existsSync(`${target}-wal`)) renameSync(`${target}-wal`, `${aside}-wal`)
  rmSync(`${target}-shm`, { force: true })
  return aside
}
