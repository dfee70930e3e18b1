import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { OperationsStore } from './store.ts'

export function sqliteOperationsStore(db: Database): OperationsStore {
  const firstWorkspace = db.query<{ id: string }, []>('SELECT id FROM workspaces ORDER BY created_at, id LIMIT 1')
  const bytes = sqliteDatabaseBytes(db)
  const select1 = db.query('SELECT 1')
  return {
    ping: () => settled(() => void select1.get()),
    installationWorkspaceId: () => settled(() => firstWorkspace.get()?.id ?? null),
    databaseBytes: () => settled(bytes),
  }
}

/** The main database file's size from its pages, read at once: the metrics' gauge reads it synchronously. */
export function sqliteDatabaseBytes(db: Database): () => number {
  const pageCount = db.query<{ page_count: number }, []>('PRAGMA page_count')
  const pageSize = db.query<{ page_size: number }, []>('PRAGMA page_size')
  return () => (pageCount.get()?.page_count ?? 0) * (pageSize.get()?.page_size ?? 0)
}
