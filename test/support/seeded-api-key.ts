import type { Database } from 'bun:sqlite'
import { newId } from '../../server/support/new-id.ts'
import { newApiKey } from '../../server/workspaces/service.ts'

/**
 * An API key written straight into a test's SQLite file, synchronously, as the service's
 * createKey would make it (the first workspace, made when there is none; or a new one): for
 * testApp, which hands its key out before any test awaits. The service's own making of keys
 * is tested in test/workspaces/.
 */
export function seededApiKey(db: Database, name: string, options: { newWorkspace?: boolean } = {}): { key: string; workspaceId: string } {
  const now = new Date().toISOString()
  let workspaceId = options.newWorkspace ? null : (db.query<{ id: string }, []>('SELECT id FROM workspaces ORDER BY created_at, id LIMIT 1').get()?.id ?? null)
  if (!workspaceId) {
    workspaceId = newId()
    db.query('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(workspaceId, options.newWorkspace ? name : 'Default workspace', now)
  }
  const { key, prefix, hash } = newApiKey()
  db.query('INSERT INTO api_keys (id, workspace_id, name, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(newId(), workspaceId, name, prefix, hash, now)
  return { key, workspaceId }
}
