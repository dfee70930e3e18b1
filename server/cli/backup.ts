import { existsSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { openDatabase } from '../db/open-database.ts'

/**
 * Writes a consistent copy of the live database with VACUUM INTO: it reads one snapshot
 * under WAL, so it is safe while the server keeps writing.
 */
export function backup(databaseFile: string, target: string): string {
  if (!existsSync(databaseFile)) throw new Error(`no database at ${databaseFile}; check PARLEY_DATA_DIR`)
  const destination = resolve(target)
  if (existsSync(destination)) throw new Error(`${destination} already exists; choose a new file name`)
  // `parley backup /backups/$(date +%F).db` on a new machine: the folder is made, private to its owner.
  try {
    mkdirSync(dirname(destination), { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new Error(`cannot create the folder ${dirname(destination)}: ${(error as Error).message}`)
  }
  const db = openDatabase(databaseFile)
  try {
    db.query('VACUUM INTO ?').run(destination)
  } finally {
    db.close()
  }
  return destination
}
