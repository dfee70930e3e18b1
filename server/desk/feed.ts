import type { WriteBatcher } from '../db/write-batcher.ts'
import type { FeedStore } from './feed-store.ts'
import type { FeedEvent } from './feed-events.ts'

/** One numbered event of a workspace's desk feed. */
export type FeedEntry = FeedEvent & { seq: number }

export type CatchUp = { entries: FeedEntry[] } | { reload: true }

/** Events kept per workspace: a desk away for longer reloads instead of catching up. */
export const FEED_KEPT = 2000
/** Most events one catch-up sends; past it the desk is told to reload. */
export const CATCH_UP_LIMIT = 1000
const PRUNE_EVERY = 200

export type DeskFeed = ReturnType<typeof deskFeed>

/**
 * The desk's live events, numbered per workspace. Each event is stored in the write batch
 * before it is sent, so its number survives a restart and a desk that reconnects with the
 * last number it saw gets exactly what it missed: nothing twice, nothing left out. Numbers
 * increase; one may be skipped after a rolled-back batch (its event was never sent).
 */
export function deskFeed({ store, batch }: { store: FeedStore; batch: WriteBatcher }) {
  const last = new Map<string, number>()
  // Entries up to here are committed: a catch-up read inside an open batch must not send later ones.
  const committed = new Map<string, number>()
  const listeners = new Set<(workspaceId: string, entry: FeedEntry) => void>()

  const latest = (workspaceId: string): number => {
    let seq = last.get(workspaceId)
    if (seq === undefined) {
      seq = store.bounds(workspaceId).high ?? 0
      last.set(workspaceId, seq)
      if (!committed.has(workspaceId)) committed.set(workspaceId, seq)
    }
    return seq
  }

  return {
    latest,
    /** The newest committed number: what a desk that connects now has seen. */
    head(workspaceId: string): number {
      latest(workspaceId)
      return committed.get(workspaceId) ?? 0
    },
    publish(workspaceId: string, event: FeedEvent): void {
      const seq = latest(workspaceId) + 1
      last.set(workspaceId, seq)
      const entry = { ...event, seq } as FeedEntry
      batch.run(
        () => {
          store.append(workspaceId, seq, JSON.stringify(entry))
          if (seq % PRUNE_EVERY === 0) store.prune(workspaceId, seq - FEED_KEPT)
        },
        () => {
          committed.set(workspaceId, Math.max(committed.get(workspaceId) ?? 0, seq))
          for (const listener of listeners) listener(workspaceId, entry)
        },
      )
    },
    /** What a desk that saw `since` missed, or reload when that is too much or no longer kept. */
    catchUp(workspaceId: string, since: number): CatchUp {
      latest(workspaceId)
      const { low } = store.bounds(workspaceId)
      if (low === null) return since === 0 ? { entries: [] } : { reload: true }
      const high = committed.get(workspaceId) ?? 0
      if (since > high || since < low - 1) return { reload: true }
      const rows = store.after(workspaceId, since, CATCH_UP_LIMIT + 1).filter((row) => row.seq <= high)
      if (rows.length > CATCH_UP_LIMIT) return { reload: true }
      return { entries: rows.map((row) => JSON.parse(row.event) as FeedEntry) }
    },
    onEntry(listener: (workspaceId: string, entry: FeedEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** After a rolled-back batch: numbers are read from the database again. */
    forget: () => {
      last.clear()
      committed.clear()
    },
  }
}
