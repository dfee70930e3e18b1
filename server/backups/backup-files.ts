import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The scheduled backups' names: `parley-2026-01-05T09-00-00Z.db`, UTC, sorting by time. */
const BACKUP_NAME = /^parley-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)Z\.db$/
/** A backup being written: renamed to its final name once it passed its check. */
export const PARTIAL_SUFFIX = '.partial'

export interface BackupListing {
  name: string
  bytes: number
  /** When it was taken, read from its name. */
  createdMs: number
}

export function backupFileName(at: Date): string {
  return `parley-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.db`
}

/** When the backup of that name was taken, or null for a file that is not one of ours. */
export function backupTime(name: string): number | null {
  const match = BACKUP_NAME.exec(name)
  return match ? Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`) : null
}

/** The folder's scheduled backups, newest first; nothing else in it is looked at. */
export function listBackups(dir: string): BackupListing[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const listed: BackupListing[] = []
  for (const name of names) {
    const createdMs = backupTime(name)
    if (createdMs === null) continue
    try {
      listed.push({ name, bytes: statSync(join(dir, name)).size, createdMs })
    } catch {
      // Deleted meanwhile.
    }
  }
  return listed.sort((a, b) => b.createdMs - a.createdMs)
}

/** Deletes the scheduled backups past the newest `keep`, and what a crash left half-written; the names deleted. */
export function pruneBackups(dir: string, keep: number): string[] {
  const gone = listBackups(dir)
    .slice(keep)
    .map((backup) => backup.name)
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {}
  for (const name of names) if (name.endsWith(PARTIAL_SUFFIX) && backupTime(name.slice(0, -PARTIAL_SUFFIX.length)) !== null) gone.push(name)
  for (const name of gone) rmSync(join(dir, name), { force: true })
  return gone
}
