import type { FlowSnapshot as StoredFlowSnapshot } from '../flows/snapshots.ts'
import type { EventBus } from '../support/events.ts'
import type { FlowSnapshot, FlowSnapshots } from './service.ts'

interface FlowVersions {
  entryVersion(chatbotId: string): { flowId: string; version: number } | null
  versionSnapshot(flowId: string, version: number): StoredFlowSnapshot | null
}

const CACHE_LIMIT = 500

/**
 * Published versions never change, so running conversations read them from memory instead of
 * parsing them from the database on every message; a deleted flow's versions are forgotten
 * at once, which is what silences its conversations.
 */
export function flowSnapshots(flows: FlowVersions, events: EventBus): FlowSnapshots {
  const cache = new Map<string, FlowSnapshot>()
  events.on('flow.removed', ({ flowId }) => {
    for (const key of cache.keys()) if (key.startsWith(`${flowId}:`)) cache.delete(key)
  })
  const snapshots: FlowSnapshots = {
    // Which version is cheap to ask; its definition comes from the same cache as running ones.
    entry(chatbotId) {
      const at = flows.entryVersion(chatbotId)
      return at ? snapshots.version(at.flowId, at.version) : null
    },
    version(flowId, version) {
      const key = `${flowId}:${version}`
      const cached = cache.get(key)
      if (cached) return cached
      const stored = flows.versionSnapshot(flowId, version)
      if (!stored || stored.type !== 'conversation') return null
      const snapshot = { flowId, version, definition: stored.definition }
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
      cache.set(key, snapshot)
      return snapshot
    },
  }
  return snapshots
}
