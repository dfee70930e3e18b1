import { type WrittenBackup, writeBackup } from './write-backup.ts'

export type WriteBackup = (databaseFile: string, target: string) => Promise<WrittenBackup>

/**
 * Backups written off the serving thread: VACUUM INTO and the integrity check read every
 * page, which on the serving thread held every request for as long (seconds on a large
 * database). Each backup gets a thread of its own, ended once it answers; where a thread
 * cannot start, the backup is written here instead, as before.
 */
export function backupThread(workerUrl: string): WriteBackup {
  return (databaseFile, target) =>
    new Promise<WrittenBackup>((resolve, reject) => {
      let worker: Worker
      try {
        worker = new Worker(workerUrl)
      } catch {
        try {
          resolve(writeBackup(databaseFile, target))
        } catch (error) {
          reject(error)
        }
        return
      }
      worker.onmessage = (event: MessageEvent<{ written: WrittenBackup } | { error: string }>) => {
        worker.terminate()
        if ('error' in event.data) reject(new Error(event.data.error))
        else resolve(event.data.written)
      }
      worker.onerror = (event) => {
        worker.terminate()
        reject(new Error(`the backup thread failed: ${event.message}`))
      }
      worker.postMessage({ databaseFile, target })
    })
}
