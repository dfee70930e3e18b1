/** The installation-wide facts the operations page reads from the database. */
export interface OperationsStore {
  /** The workspace the first start created: the installation's own, whose admins run it. */
  installationWorkspaceId(): Promise<string | null>
  /** The database's size in bytes (SQLite: the main file's pages, its WAL apart; PostgreSQL: pg_database_size). */
  databaseBytes(): Promise<number>
  /** Resolves once the database has answered a query, rejects when it does not (GET /readyz). */
  ping(): Promise<void>
}
