import type { Database } from 'bun:sqlite'

export type WorkspaceRow = {
  id: string
  name: string
  created_at: string
}

export type ApiKeyRow = {
  id: string
  workspace_id: string
  name: string
  prefix: string
  hash: string
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
}

export type WorkspaceStore = ReturnType<typeof workspaceStore>

/** The only code that reads or writes workspaces and API keys. */
export function workspaceStore(db: Database) {
  const insertWorkspace = db.query('INSERT INTO workspaces (id, name, created_at) VALUES ($id, $name, $created_at)')
  const selectWorkspace = db.query<WorkspaceRow, [string]>('SELECT * FROM workspaces WHERE id = ?')
  const selectFirstWorkspace = db.query<WorkspaceRow, []>(
    'SELECT * FROM workspaces ORDER BY created_at, id LIMIT 1',
  )
  const countWorkspaces = db.query<{ n: number }, []>('SELECT count(*) AS n FROM workspaces')
  const insertKey = db.query(
    `INSERT INTO api_keys (id, workspace_id, name, prefix, hash, created_at)
     VALUES ($id, $workspace_id, $name, $prefix, $hash, $created_at)`,
  )
  const selectKeyByPrefix = db.query<ApiKeyRow, [string]>('SELECT * FROM api_keys WHERE prefix = ?')
  const selectKeys = db.query<ApiKeyRow, []>('SELECT * FROM api_keys ORDER BY created_at, id')
  const revokeKey = db.query<ApiKeyRow, [string, string]>(
    'UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL RETURNING *',
  )

  const selectKeysOf = db.query<ApiKeyRow, [string]>('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC')
  const revokeKeyOf = db.query<ApiKeyRow, [string, string, string]>(
    'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE prefix = ? AND workspace_id = ? RETURNING *',
  )
  const touchKey = db.query('UPDATE api_keys SET last_used_at = ? WHERE id = ?')

  return {
    listKeysOf: (workspaceId: string) => selectKeysOf.all(workspaceId),
    /** Revokes a key of the workspace (a revoked one keeps its first revocation time); undefined when it has none by that prefix. */
    revokeKeyOf: (workspaceId: string, prefix: string, at: string) => revokeKeyOf.get(at, prefix, workspaceId) ?? undefined,
    touchKey: (id: string, at: string) => void touchKey.run(at, id),
    transaction: <T>(work: () => T): T => db.transaction(work).immediate(),
    insertWorkspace: (row: WorkspaceRow) => void insertWorkspace.run(row),
    getWorkspace: (id: string) => selectWorkspace.get(id),
    firstWorkspace: () => selectFirstWorkspace.get(),
    countWorkspaces: () => countWorkspaces.get()?.n ?? 0,
    insertKey: (row: Omit<ApiKeyRow, 'revoked_at' | 'last_used_at'>) => void insertKey.run(row),
    findKeyByPrefix: (prefix: string) => selectKeyByPrefix.get(prefix),
    listKeys: () => selectKeys.all(),
    revokeKey: (prefix: string, at: string) => revokeKey.get(at, prefix),
  }
}
