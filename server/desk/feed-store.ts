import type { Database } from 'bun:sqlite'

export type FeedStore = ReturnType<typeof feedStore>

/** An entry to store: its number, and its JSON text (an object with that `seq`). */
export interface FeedEntryText {
  seq: number
  event: string
}

/** A stored entry as read back: the parsed JSON object. */
export type StoredFeedEntry = { seq: number } & Record<string, unknown>

/**
 * The desk socket's numbered events, per workspace (desk_feed). A row holds the entries one
 * write batch made, keyed by the last one's number: its `event` is one entry's JSON object, or
 * a JSON array of several in order (a busy batch stores hundreds of turns' entries in one row
 * instead of a row each).
 */
export function feedStore(db: Database) {
  const append = db.query<unknown, [string, number, string]>('INSERT INTO desk_feed (workspace_id, seq, event) VALUES (?, ?, ?)')
  const after = db.query<{ seq: number; event: string }, [string, number, number]>(
    'SELECT seq, event FROM desk_feed WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  )
  const high = db.query<{ high: number | null }, [string]>('SELECT max(seq) AS high FROM desk_feed WHERE workspace_id = ?')
  const firstRow = db.query<{ seq: number; event: string }, [string]>('SELECT seq, event FROM desk_feed WHERE workspace_id = ? ORDER BY seq LIMIT 1')
  const prune = db.query<unknown, [string, number]>('DELETE FROM desk_feed WHERE workspace_id = ? AND seq <= ?')
  return {
    /** Entries in order, each as its JSON text with its number. */
    append(workspaceId: string, entries: readonly FeedEntryText[]): void {
      const last = entries.at(-1)
      if (!last) return
      append.run(workspaceId, last.seq, entries.length === 1 ? last.event : `[${entries.map((entry) => entry.event).join(',')}]`)
    },
    /** The entries numbered past `seq`, in order and parsed, from at most `rows` rows (each holds one or more). */
    after(workspaceId: string, seq: number, rows: number): StoredFeedEntry[] {
      const found: StoredFeedEntry[] = []
      for (const row of after.all(workspaceId, seq, rows)) for (const entry of entriesOf(row)) if (entry.seq > seq) found.push(entry)
      return found
    },
    /** The first and last numbers kept. */
    bounds(workspaceId: string): { low: number | null; high: number | null } {
      const first = firstRow.get(workspaceId)
      if (!first) return { low: null, high: null }
      // Read on a desk's connect and at a workspace's first entry since the start, not per turn.
      return { low: entriesOf(first)[0]?.seq ?? first.seq, high: high.get(workspaceId)?.high ?? first.seq }
    },
    /** The last number stored (null: none). */
    high: (workspaceId: string): number | null => high.get(workspaceId)?.high ?? null,
    prune: (workspaceId: string, upTo: number) => prune.run(workspaceId, upTo),
  }
}

/** A row's entries, parsed. */
function entriesOf(row: { event: string }): StoredFeedEntry[] {
  const parsed = JSON.parse(row.event) as StoredFeedEntry | StoredFeedEntry[]
  return Array.isArray(parsed) ? parsed : [parsed]
}
