import type { Clock } from '../support/clock.ts'
import { constantTimeEqual } from '../support/constant-time-equal.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import type { ApiKeyRow, WorkspaceRow, WorkspaceStore } from './store.ts'

const KEY_PREFIX_LENGTH = 'pk_'.length + 8
/**
 * How long a verified key is trusted without asking the database again. Keys are revoked by
 * the CLI, another process, so a revocation takes effect within this time.
 */
export const KEY_CACHE_MS = 1000
const KEY_CACHE_MAX = 10_000

export interface CreatedKey {
  key: string
  prefix: string
  workspaceId: string
}

export interface KeySummary {
  prefix: string
  name: string
  workspace_id: string
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
}

/** How stale `last_used_at` may get: a key in constant use is written once a minute, not per request. */
const LAST_USED_PRECISION_MS = 60_000

export type WorkspaceService = ReturnType<typeof workspaceService>

/** Workspaces and the API keys that open them. Keys are stored only as SHA-256 hashes. */
export function workspaceService(store: WorkspaceStore, now: Clock, monotonicMs: () => number = () => performance.now()) {
  // Verified keys only, by hash: unknown keys always reach the database, so junk cannot fill it.
  const verified = new Map<string, { workspaceId: string; until: number }>()

  function createWorkspace(name: string): WorkspaceRow {
    const row = { id: newId(), name, created_at: now() }
    store.insertWorkspace(row)
    return row
  }

  function issueKey(workspaceId: string, name: string): CreatedKey {
    for (;;) {
      const key = `pk_${randomToken(40)}`
      const prefix = key.slice(0, KEY_PREFIX_LENGTH)
      if (store.findKeyByPrefix(prefix)) continue
      store.insertKey({ id: newId(), workspace_id: workspaceId, name, prefix, hash: hashKey(key), created_at: now() })
      return { key, prefix, workspaceId }
    }
  }

  return {
    createWorkspace,
    hasWorkspaces: () => store.countWorkspaces() > 0,

    /** Without a workspace: the first one, created when there is none. */
    createKey(options: { name: string; workspaceId?: string; newWorkspace?: boolean }): CreatedKey {
      return store.transaction(() => {
        let workspaceId = options.workspaceId
        if (options.newWorkspace) workspaceId = createWorkspace(options.name).id
        else if (workspaceId) {
          if (!store.getWorkspace(workspaceId)) throw new Error(`no workspace with id ${workspaceId}`)
        } else workspaceId = (store.firstWorkspace() ?? createWorkspace('Default workspace')).id
        return issueKey(workspaceId, options.name)
      })
    },

    /** The workspace a presented key opens, or null for a missing, unknown or revoked key. */
    authenticate(presented: string): string | null {
      if (!presented.startsWith('pk_') || presented.length < KEY_PREFIX_LENGTH) return null
      const hash = hashKey(presented)
      const cached = verified.get(hash)
      const at = monotonicMs()
      if (cached && cached.until > at) return cached.workspaceId
      const row = store.findKeyByPrefix(presented.slice(0, KEY_PREFIX_LENGTH))
      if (!row || row.revoked_at || !constantTimeEqual(row.hash, hash)) {
        verified.delete(hash)
        return null
      }
      const usedAt = now()
      if (!row.last_used_at || Date.parse(usedAt) - Date.parse(row.last_used_at) >= LAST_USED_PRECISION_MS) store.touchKey(row.id, usedAt)
      if (verified.size >= KEY_CACHE_MAX) verified.clear()
      verified.set(hash, { workspaceId: row.workspace_id, until: at + KEY_CACHE_MS })
      return row.workspace_id
    },

    listKeys: (): KeySummary[] => store.listKeys().map(summarize),

    /** A workspace's keys, newest first, revoked ones included. */
    keysOf: (workspaceId: string): KeySummary[] => store.listKeysOf(workspaceId).map(summarize),

    /** A new key of an existing workspace; the key itself is in this answer only. */
    issueKey: (workspaceId: string, name: string): CreatedKey => store.transaction(() => issueKey(workspaceId, name)),

    /** Revokes a key of this workspace by its prefix; null when it has none such (another workspace's included). */
    revokeKeyOf(workspaceId: string, prefix: string): KeySummary | null {
      const row = store.revokeKeyOf(workspaceId, prefix, now())
      if (row) verified.clear()
      return row ? summarize(row) : null
    },

    revokeKey(prefix: string): KeySummary | null {
      const row = store.revokeKey(prefix, now())
      if (row) verified.clear()
      return row ? summarize(row) : null
    },
  }
}

function hashKey(key: string): string {
  return Bun.SHA256.hash(key, 'hex') as string
}

function summarize(row: ApiKeyRow): KeySummary {
  const { prefix, name, workspace_id, created_at, revoked_at, last_used_at } = row
  return { prefix, name, workspace_id, created_at, revoked_at, last_used_at }
}
