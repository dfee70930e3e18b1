import { answeredNow } from '../db/answered-now.ts'
import { RowCache } from '../db/row-cache.ts'
import { toSnapshot } from '../flows/snapshots.ts'
import type { FlowStore } from '../flows/store.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { FlowSnapshot, FlowSnapshots } from './service.ts'

/** The flows store's reads a turn needs (behind the store seam). */
type FlowVersions = Pick<FlowStore, 'entryVersion' | 'versionSnapshot'>

const CACHE_LIMIT = 500
/** How long a chatbot's entry version is used without asking the database again. */
const ENTRY_KEPT_MS = 1000

/**
 * Published versions never change, so running conversations read them from memory instead of
 * parsing them from the database on every message; a deleted flow's versions are forgotten
 * at once, which is what silences its conversations.
 *
 * The turn is still synchronous (until wave 2 of docs/postgres-plan.md), so it reads this
 * cache in its own tick, and a miss is filled from the flows store with `answeredNow`: the
 * SQLite store has answered by then; on PostgreSQL the turn must await the fill first.
 */
export function flowSnapshots(flows: FlowVersions, events: EventBus): FlowSnapshots {
  const cache = new Map<string, FlowSnapshot>()
  /**
   * Which version each chatbot's new conversations start on, as last read. Every new
   * conversation asks, and the query (three joined tables) was about 5% of the serving thread's
   * samples in bench:agent. Forgotten at once when it can change here (a publish, a chatbot's entry flow, a
   * deleted flow or chatbot) or a rolled-back batch, and after a second in any case.
   */
  const entries = new RowCache<{ at: { flowId: string; version: number } | null; readAtMs: number }>(CACHE_LIMIT)
  const forgetEntry = ({ chatbotId }: { chatbotId: string }) => void entries.delete(chatbotId)
  events.on('flow.published', forgetEntry)
  events.on('chatbot.changed', forgetEntry)
  events.on('chatbot.removed', forgetEntry)
  events.on('database.rolled_back', () => entries.clear())
  events.on('flow.removed', ({ chatbotId, flowId }) => {
    entries.delete(chatbotId)
    for (const key of cache.keys()) if (key.startsWith(`${flowId}:`)) cache.delete(key)
  })
  function entryVersion(chatbotId: string): { flowId: string; version: number } | null {
    // The process's own clock, not the domain clock a test may hold still.
    const nowMs = performance.now()
    const kept = entries.get(chatbotId)
    if (kept && nowMs - kept.readAtMs < ENTRY_KEPT_MS) return kept.at
    const row = answeredNow(flows.entryVersion(chatbotId))
    const at = row ? { flowId: row.flow_id, version: row.version } : null
    entries.set(chatbotId, { at, readAtMs: nowMs })
    return at
  }
  const snapshots: FlowSnapshots = {
    // Which version is cheap to ask; its definition comes from the same cache as running ones.
    entry(chatbotId) {
      const at = entryVersion(chatbotId)
      return at ? snapshots.version(at.flowId, at.version) : null
    },
    version(flowId, version) {
      const key = `${flowId}:${version}`
      const cached = cache.get(key)
      if (cached) return cached
      const row = answeredNow(flows.versionSnapshot(flowId, version))
      const stored = row ? toSnapshot(row) : null
      if (!stored || stored.type !== 'conversation') return null
      const snapshot = { flowId, version, definition: stored.definition }
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
      cache.set(key, snapshot)
      return snapshot
    },
  }
  return snapshots
}
