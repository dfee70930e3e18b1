import type { Database } from 'bun:sqlite'

export type FeedStore = ReturnType<typeof feedStore>

/** The desk socket's numbered events, per workspace (desk_feed). */
export function feedStore(db: Database) {
  const append = db.query<unknown, [string, number, string]>('INSERT INTO desk_feed (workspace_id, seq, event) VALUES (?, ?, ?)')
  const after = db.query<{ seq: number; event: string }, [string, number, number]>(
    'SELECT seq, event FROM desk_feed WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  )
  const bounds = db.query<{ low: number | null; high: number | null }, [string]>(
    'SELECT min(seq) AS low, max(seq) AS high FROM desk_feed WHERE workspace_id = ?',
  )
  const prune = db.query<unknown, [string, number]>('DELETE FROM desk_feed WHERE workspace_id = ? AND seq <= ?')
  return {
    append: (workspaceId: string, seq: number, event: string) => append.run(workspaceId, seq, event),
    after: (workspaceId: string, seq: number, limit: number) => after.all(workspaceId, seq, limit),
    bounds: (workspaceId: string) => bounds.get(workspaceId) ?? { low: null, high: null },
    prune: (workspaceId: string, upTo: number) => prune.run(workspaceId, upTo),
  }
}
