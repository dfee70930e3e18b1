import type { Database } from 'bun:sqlite'

/** One row of flow_steps: a state entered (with the way in), or a handoff or agent failure (no `to_state`). */
export interface StepRow {
  /** Stored as the conversation's number (conversations.seq, migration 29). */
  conversation_id: string
  flow_id: string
  flow_version: number
  from_state: string | null
  way: string
  to_state: string | null
  at: string
}

/** How many times one way was taken in a period, and by how many conversations. */
export interface WayCount {
  from_state: string | null
  way: string
  to_state: string | null
  times: number
  conversations: number
}

export type StepStore = ReturnType<typeof stepStore>

/** The flow_steps table: written with each turn, read summed per way for a flow's version and period. */
export function stepStore(db: Database) {
  const insert = db.query<unknown, [string, string, number, string | null, string, string | null, string]>(
    `INSERT INTO flow_steps (conversation_seq, flow_id, flow_version, from_state, way, to_state, at)
     VALUES ((SELECT seq FROM conversations WHERE id = ?), ?, ?, ?, ?, ?, ?)`,
  )
  const counts = db.query<WayCount, [string, number, string, string]>(
    `SELECT from_state, way, to_state, count(*) AS times, count(DISTINCT conversation_seq) AS conversations
       FROM flow_steps WHERE flow_id = ? AND flow_version = ? AND at >= ? AND at < ?
      GROUP BY from_state, way, to_state`,
  )
  const perState = db.query<{ state: string; conversations: number }, [string, number, string, string]>(
    `SELECT to_state AS state, count(DISTINCT conversation_seq) AS conversations
       FROM flow_steps WHERE flow_id = ? AND flow_version = ? AND at >= ? AND at < ? AND to_state IS NOT NULL
      GROUP BY to_state`,
  )
  return {
    insert(row: StepRow): void {
      insert.run(row.conversation_id, row.flow_id, row.flow_version, row.from_state, row.way, row.to_state, row.at)
    },
    /** Distinct conversations that entered each state. */
    conversationsPerState: (flowId: string, version: number, since: string, until: string) => perState.all(flowId, version, since, until),
    counts: (flowId: string, version: number, since: string, until: string): WayCount[] => counts.all(flowId, version, since, until),
  }
}
