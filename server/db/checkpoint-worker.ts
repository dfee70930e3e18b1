/**
 * The background checkpointer's thread (see background-checkpoints.ts): its own connection
 * to the database file, folding the WAL back into it when asked. Messages in: `{ file }` to
 * open, `'checkpoint'`, `'stop'`. Out: `'ready'`; `'checkpointed'` or `{ error }` after each
 * checkpoint; `'stopped'`.
 */
import { Database } from 'bun:sqlite'

declare const self: Worker

let db: Database | null = null
let checkpoint: ReturnType<Database['query']> | null = null

self.onmessage = (event: MessageEvent<{ file: string } | 'checkpoint' | 'stop'>) => {
  if (event.data === 'checkpoint') {
    try {
      checkpoint?.get()
      self.postMessage('checkpointed')
    } catch (error) {
      self.postMessage({ error: String(error) })
    }
    return
  }
  if (event.data === 'stop') {
    checkpoint = null
    db?.close()
    db = null
    self.postMessage('stopped')
    return
  }
  db = new Database(event.data.file, { strict: true })
  db.exec('PRAGMA busy_timeout = 5000')
  checkpoint = db.query('PRAGMA wal_checkpoint(PASSIVE)')
  self.postMessage('ready')
}
