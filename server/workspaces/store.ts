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

/** The only code that reads or writes workspaces and API keys (docs/architecture.md, "The store seam"). */
export interface WorkspaceStore {
  insertWorkspace(row: WorkspaceRow): Promise<void>
  getWorkspace(id: string): Promise<WorkspaceRow | undefined>
  /** The first created, the smaller id (in byte order) on a tie. */
  firstWorkspace(): Promise<WorkspaceRow | undefined>
  countWorkspaces(): Promise<number>
  insertKey(row: Omit<ApiKeyRow, 'revoked_at' | 'last_used_at'>): Promise<void>
  findKeyByPrefix(prefix: string): Promise<ApiKeyRow | undefined>
  /** Every workspace's keys, oldest first (the CLI's list). */
  listKeys(): Promise<ApiKeyRow[]>
  /** A workspace's keys, newest first, revoked ones included. */
  listKeysOf(workspaceId: string): Promise<ApiKeyRow[]>
  /** Revokes an active key by prefix, whatever its workspace; undefined when none is active by that prefix. */
  revokeKey(prefix: string, at: string): Promise<ApiKeyRow | undefined>
  /** Revokes a key of the workspace (a revoked one keeps its first revocation time); undefined when it has none by that prefix. */
  revokeKeyOf(workspaceId: string, prefix: string, at: string): Promise<ApiKeyRow | undefined>
  touchKey(id: string, at: string): Promise<void>
}
