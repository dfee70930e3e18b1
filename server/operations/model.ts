import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'

export const OperationsStatus = t.Object({
  version: t.String({ examples: ['0.1.0'] }),
  started_at: Timestamp,
  uptime_seconds: t.Integer({ minimum: 0 }),
  database_bytes: t.Integer({ minimum: 0, description: 'the database file, without its write-ahead log' }),
  wal_bytes: t.Integer({ minimum: 0, description: 'the write-ahead log beside it (parley.db-wal), folded into the file by checkpoints' }),
})
export type OperationsStatus = Static<typeof OperationsStatus>

export const RecentLogs = t.Object({
  lines: t.Array(t.String(), { description: 'the last log lines (at most 200), oldest first, each one JSON object as written to stdout' }),
})
export type RecentLogs = Static<typeof RecentLogs>
