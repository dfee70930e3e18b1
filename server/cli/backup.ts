import { writeBackup } from '../backups/write-backup.ts'

/**
 * `parley backup FILE`: a consistent copy of the live database (VACUUM INTO reads one snapshot
 * under WAL, so it is safe while the server keeps writing), integrity-checked before it gets
 * its name. Refuses to overwrite; creates the folder, private to its owner.
 */
export function backup(databaseFile: string, target: string): string {
  return writeBackup(databaseFile, target).file
}
