import { messageJson } from '../conversations/message-json.ts'
import type { WriteBatcher } from '../db/write-batcher.ts'
import type { FeedEntryText, FeedStore } from './feed-store.ts'
import type { FeedEvent } from './feed-events.ts'

/** One numbered event of a workspace's desk feed. */
export type FeedEntry = FeedEvent & { seq: number }

export type CatchUp = { entries: FeedEntry[] } | { reload: true }

/** Events kept per workspace: a desk away for longer reloads instead of catching up. */
export const FEED_KEPT = 2000
/** Most events one catch-up sends; past it the desk is told to reload. */
export const CATCH_UP_LIMIT = 1000
const PRUNE_EVERY = 200

/** An entry's JSON text, as JSON.stringify writes it; a message's own text is made once (the widget's frame shares it). */
function entryText(entry: FeedEntry): string {
  if (entry.type !== 'message') return JSON.stringify(entry)
  const { conversation_id, chatbot_id, message, seq } = entry
  return `{"type":"message","conversation_id":${JSON.stringify(conversation_id)},"chatbot_id":${JSON.stringify(chatbot_id)},"message":${messageJson(message)},"seq":${seq}}`
}

/** Crosses a multiple of PRUNE_EVERY between `from` (exclusive) and `to`. */
const prunesAt = (from: number, to: number) => Math.floor(to / PRUNE_EVERY) > Math.floor(from / PRUNE_EVERY)

export type DeskFeed = ReturnType<typeof deskFeed>

/**
 * The desk's live events, numbered per workspace. Each event is stored in the write batch
 * before it is sent, so its number survives a restart and a desk that reconnects with the
 * last number it saw gets exactly what it missed: nothing twice, nothing left out. Numbers
 * increase; one may be skipped after a rolled-back batch (its event was never sent). A batch's
 * entries of one workspace are stored as one row just before it commits (a busy batch holds
 * hundreds of turns): one insert per batch, not one per message.
 */
export function deskFeed({ store, batch }: { store: FeedStore; batch: WriteBatcher }) {
  const last = new Map<string, number>()
  // Entries up to here are committed: a catch-up read inside an open batch must not send later ones.
  const committed = new Map<string, number>()
  const listeners = new Set<(workspaceId: string, entry: FeedEntry, text: string) => void>()
  /** Entries of the open batch not stored yet, per workspace, in order. */
  let pending = new Map<string, FeedEntryText[]>()

  const storePending = (): void => {
    const batchEntries = pending
    pending = new Map()
    for (const [workspaceId, entries] of batchEntries) {
      store.append(workspaceId, entries)
      const from = (entries[0] as FeedEntryText).seq - 1
      const to = (entries.at(-1) as FeedEntryText).seq
      if (prunesAt(from, to)) store.prune(workspaceId, to - FEED_KEPT)
    }
  }

  const latest = (workspaceId: string): number => {
    let seq = last.get(workspaceId)
    if (seq === undefined) {
      seq = store.high(workspaceId) ?? 0
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
      // Its JSON text, made once for the stored row and every desk it is sent to.
      const text = { seq, event: entryText(entry) }
      batch.run(
        () => {
          const first = pending.size === 0
          const entries = pending.get(workspaceId)
          if (entries) entries.push(text)
          else pending.set(workspaceId, [text])
          // Inside someone else's transaction this stores it at once.
          if (first) batch.beforeCommit(storePending)
        },
        () => {
          committed.set(workspaceId, Math.max(committed.get(workspaceId) ?? 0, seq))
          for (const listener of listeners) listener(workspaceId, entry, text.event)
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
      // Each row holds one entry or more: CATCH_UP_LIMIT + 1 rows are past the limit in any case.
      const entries = store.after(workspaceId, since, CATCH_UP_LIMIT + 1).filter((entry) => entry.seq <= high)
      if (entries.length > CATCH_UP_LIMIT) return { reload: true }
      return { entries: entries as unknown as FeedEntry[] }
    },
    /** Each committed entry, with its JSON text (as stored). */
    onEntry(listener: (workspaceId: string, entry: FeedEntry, text: string) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** After a rolled-back batch: numbers are read from the database again. */
    forget: () => {
      pending = new Map()
      last.clear()
      committed.clear()
    },
  }
}
