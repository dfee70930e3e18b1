/**
 * The backup thread (see backup-thread.ts): writes and checks one backup with its own
 * connection, so that reading every page of the database never holds the serving thread.
 * In: `{ databaseFile, target }`. Out: `{ written }` or `{ error }`.
 */
import { writeBackup } from './write-backup.ts'

declare const self: Worker

self.onmessage = (event: MessageEvent<{ databaseFile: string; target: string }>) => {
  try {
    self.postMessage({ written: writeBackup(event.data.databaseFile, event.data.target) })
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}
