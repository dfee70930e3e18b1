import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { ApiKeyRow, WorkspaceRow, WorkspaceStore } from './store.ts'

export function sqliteWorkspaceStore(db: Database): WorkspaceStore {
  const insertWorkspace = db.query('INSERT INTO workspaces (id, name, created_at) VALUES ($id, $name, $created_at)')
  const selectWorkspace = db.query<WorkspaceRow, [string]>('SELECT * FROM workspaces WHERE id = ?')
  const selectFirstWorkspace = db.query<WorkspaceRow, []>('SELECT * FROM workspaces ORDER BY created_at, id LIMIT 1')
  const countWorkspaces = db.query<{ n: number }, []>('SELECT count(*) AS n FROM workspaces')
  const insertKey = db.query(
    `INSERT INTO api_keys (id, workspace_id, name, prefix, hash, created_at)
     VALUES ($id, $workspace_id, $name, $prefix, $hash, $created_at)`,
  )
  const selectKeyByPrefix = db.query<ApiKeyRow, [string]>('SELECT * FROM api_keys WHERE prefix = ?')
  const selectKeys = db.query<ApiKeyRow, []>('SELECT * FROM api_keys ORDER BY created_at, id')
  const selectKeysOf = db.query<ApiKeyRow, [string]>('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC')
  const revokeKey = db.query<ApiKeyRow, [string, string]>('UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL RETURNING *')
  const revokeKeyOf = db.query<ApiKeyRow, [string, string, string]>(
    'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE prefix = ? AND workspace_id = ? RETURNING *',
  )
  const touchKey = db.query('UPDATE api_keys SET last_used_at = ? WHERE id = ?')

  return {
    insertWorkspace: (row) => settled(() => void insertWorkspace.run(row)),
    getWorkspace: (id) => settled(() => selectWorkspace.get(id) ?? undefined),
    firstWorkspace: () => settled(() => selectFirstWorkspace.get() ?? undefined),
    countWorkspaces: () => settled(() => countWorkspaces.get()?.n ?? 0),
    insertKey: (row) => settled(() => void insertKey.run(row)),
    findKeyByPrefix: (prefix) => settled(() => selectKeyByPrefix.get(prefix) ?? undefined),
    listKeys: () => settled(() => selectKeys.all()),
    listKeysOf: (workspaceId) => settled(() => selectKeysOf.all(workspaceId)),
    revokeKey: (prefix, at) => settled(() => revokeKey.get(at, prefix) ?? undefined),
    revokeKeyOf: (workspaceId, prefix, at) => settled(() => revokeKeyOf.get(at, prefix, workspaceId) ?? undefined),
    touchKey: (id, at) => settled(() => void touchKey.run(at, id)),
  }
}
