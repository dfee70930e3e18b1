import type { Database } from 'bun:sqlite'

export type OperationsStore = ReturnType<typeof operationsStore>

/** The installation-wide facts the operations page reads from the database. */
export function operationsStore(db: Database) {
  const firstWorkspace = db.query<{ id: string }, []>('SELECT id FROM workspaces ORDER BY created_at, id LIMIT 1')
  const pageCount = db.query<{ page_count: number }, []>('PRAGMA page_count')
  const pageSize = db.query<{ page_size: number }, []>('PRAGMA page_size')
  return {
    /** The workspace the first start created: the installation's own, whose admins run it. */
    installationWorkspaceId: () => firstWorkspace.get()?.id ?? null,
    /** The main database file's size in bytes (its pages; the WAL beside it is apart). */
    databaseBytes: () => (pageCount.get()?.page_count ?? 0) * (pageSize.get()?.page_size ?? 0),
  }
}
