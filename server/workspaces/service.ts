import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import { constantTimeEqual } from '../support/constant-time-equal.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import type { ApiKeyRow, WorkspaceRow, WorkspaceStore } from './store.ts'

type WorkspaceStores = { workspaces: WorkspaceStore }

export interface WorkspaceServiceDeps {
  stores: WorkspaceStores
  units: Units<WorkspaceStores>
  now: Clock
  monotonicMs?: () => number
}

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

/**
 * Workspaces and the API keys that open them. Keys are stored only as SHA-256 hashes. A key
 * verified in the last KEY_CACHE_MS opens its workspace from memory: a request's check then
 * awaits no database round trip.
 */
export function workspaceService({ stores, units, now, monotonicMs = () => performance.now() }: WorkspaceServiceDeps) {
  // Verified keys only, by hash: unknown keys always reach the database, so junk cannot fill it.
  const verified = new Map<string, { workspaceId: string; until: number }>()

  async function createWorkspace(tx: WorkspaceStores, name: string): Promise<WorkspaceRow> {
    const row = { id: newId(), name, created_at: now() }
    await tx.workspaces.insertWorkspace(row)
    return row
  }

  async function issueKey(tx: WorkspaceStores, workspaceId: string, name: string): Promise<CreatedKey> {
    for (;;) {
      const { key, prefix, hash } = newApiKey()
      if (await tx.workspaces.findKeyByPrefix(prefix)) continue
      await tx.workspaces.insertKey({ id: newId(), workspace_id: workspaceId, name, prefix, hash, created_at: now() })
      return { key, prefix, workspaceId }
    }
  }

  /** What a key opens from memory, when it was verified less than KEY_CACHE_MS ago. */
  function remembered(hash: string, at: number): string | undefined {
    const cached = verified.get(hash)
    return cached && cached.until > at ? cached.workspaceId : undefined
  }

  async function verify(presented: string, hash: string, at: number): Promise<string | null> {
    const row = await stores.workspaces.findKeyByPrefix(presented.slice(0, KEY_PREFIX_LENGTH))
    if (!row || row.revoked_at || !constantTimeEqual(row.hash, hash)) {
      verified.delete(hash)
      return null
    }
    const usedAt = now()
    if (!row.last_used_at || Date.parse(usedAt) - Date.parse(row.last_used_at) >= LAST_USED_PRECISION_MS) {
      // Not awaited: the request does not wait for a note of when its key was last used, and a
      // failure to write it is not the caller's (the database's failures show elsewhere).
      units.unit((tx) => tx.workspaces.touchKey(row.id, usedAt)).catch(() => {})
    }
    if (verified.size >= KEY_CACHE_MAX) verified.clear()
    verified.set(hash, { workspaceId: row.workspace_id, until: at + KEY_CACHE_MS })
    return row.workspace_id
  }

  /** Forgets every verified key: a revoked one must not open its workspace from memory. */
  function revoked(row: ApiKeyRow | undefined): KeySummary | null {
    if (!row) return null
    verified.clear()
    return summarize(row)
  }

  return {
    hasWorkspaces: async () => (await stores.workspaces.countWorkspaces()) > 0,

    /** Without a workspace: the first one, created when there is none. */
    createKey(options: { name: string; workspaceId?: string; newWorkspace?: boolean }): Promise<CreatedKey> {
      return units.unit(async (tx) => {
        let workspaceId = options.workspaceId
        if (options.newWorkspace) workspaceId = (await createWorkspace(tx, options.name)).id
        else if (workspaceId) {
          if (!(await tx.workspaces.getWorkspace(workspaceId))) throw new Error(`no workspace with id ${workspaceId}`)
        } else workspaceId = ((await tx.workspaces.firstWorkspace()) ?? (await createWorkspace(tx, 'Default workspace'))).id
        return issueKey(tx, workspaceId, options.name)
      })
    },

    /**
     * The workspace a presented key opens, or null for a missing, unknown or revoked key: from
     * memory when the key was verified less than KEY_CACHE_MS ago, else from the database.
     */
    async authenticate(presented: string): Promise<string | null> {
      if (!presented.startsWith('pk_') || presented.length < KEY_PREFIX_LENGTH) return null
      const hash = hashKey(presented)
      const at = monotonicMs()
      return remembered(hash, at) ?? verify(presented, hash, at)
    },

    listKeys: async (): Promise<KeySummary[]> => (await stores.workspaces.listKeys()).map(summarize),

    /** A workspace's keys, newest first, revoked ones included. */
    keysOf: async (workspaceId: string): Promise<KeySummary[]> => (await stores.workspaces.listKeysOf(workspaceId)).map(summarize),

    /** A new key of an existing workspace; the key itself is in this answer only. */
    issueKey: (workspaceId: string, name: string): Promise<CreatedKey> => units.unit((tx) => issueKey(tx, workspaceId, name)),

    /** Revokes a key of this workspace by its prefix; null when it has none such (another workspace's included). */
    revokeKeyOf: async (workspaceId: string, prefix: string): Promise<KeySummary | null> =>
      revoked(await units.unit((tx) => tx.workspaces.revokeKeyOf(workspaceId, prefix, now()))),

    revokeKey: async (prefix: string): Promise<KeySummary | null> => revoked(await units.unit((tx) => tx.workspaces.revokeKey(prefix, now()))),
  }
}

/** A new key: `pk_` and 40 base62 characters; stored only as its prefix and its hash. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = `pk_${randomToken(40)}`
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashKey(key) }
}

function hashKey(key: string): string {
  return Bun.SHA256.hash(key, 'hex') as string
}

function summarize(row: ApiKeyRow): KeySummary {
  const { prefix, name, workspace_id, created_at, revoked_at, last_used_at } = row
  return { prefix, name, workspace_id, created_at, revoked_at, last_used_at }
}
