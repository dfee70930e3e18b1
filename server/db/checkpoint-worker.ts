/**
 * The background checkpointer's thread (see background-checkpoints.ts): its own connection
 * to the database file, folding the WAL back into it when asked. Messages in: `{ file }` to
 * open, `'checkpoint'`, `'stop'`. Out: `'ready'`; after each checkpoint `'checkpointed'` (the
 * whole log copied), `'partial'` (a reader or the writer held some back) or `{ error }`;
 * `'stopped'`.
 */
import { Database } from 'bun:sqlite'

declare const self: Worker

let db: Database | null = null
let checkpoint: ReturnType<Database['query']> | null = null

interface CheckpointRow {
  busy: number
  log: number
  checkpointed: number
}

self.onmessage = (event: MessageEvent<{ file: string } | 'checkpoint' | 'stop'>) => {
  if (event.data === 'checkpoint') {
    try {
      const row = checkpoint?.get() as CheckpointRow | null
      self.postMessage(!row || row.log === row.checkpointed ? 'checkpointed' : 'partial')
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
