import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'

export const OperationsStatus = t.Object({
  version: t.String({ examples: ['0.1.0'] }),
  started_at: Timestamp,
  uptime_seconds: t.Integer({ minimum: 0 }),
  database: t.Object(
    {
      engine: t.Union([t.Literal('sqlite'), t.Literal('postgresql')]),
      location: t.String({ description: "SQLite: the database file's path; PostgreSQL: PARLEY_DATABASE_URL with its password masked", examples: ['/var/lib/parley/parley.db'] }),
    },
    { description: 'which database this Parley keeps its data in' },
  ),
  database_bytes: t.Integer({ minimum: 0, description: 'SQLite: the database file, without its write-ahead log; PostgreSQL: pg_database_size' }),
  wal_bytes: t.Integer({ minimum: 0, description: 'SQLite: the write-ahead log beside it (parley.db-wal), folded into the file by checkpoints; PostgreSQL: 0' }),
  backups: t.Object(
    {
      scheduled: t.Boolean({ description: 'whether PARLEY_BACKUP_EVERY is set' }),
      dir: t.Union([t.String(), t.Null()], { description: 'PARLEY_BACKUP_DIR' }),
      every_seconds: t.Union([t.Integer(), t.Null()]),
      keep: t.Union([t.Integer(), t.Null()], { description: 'PARLEY_BACKUP_KEEP: how many of the newest are kept' }),
      files: t.Array(
        t.Object({ name: t.String(), bytes: t.Integer({ minimum: 0 }), created_at: Timestamp, age_seconds: t.Integer({ minimum: 0 }) }),
        { description: 'the scheduled backups in the folder, newest first; each was integrity-checked before it got its name' },
      ),
      running: t.Boolean({ description: 'a backup is being written now' }),
      next_at: t.Union([Timestamp, t.Null()]),
      last_failure: t.Union([t.Object({ at: Timestamp, error: t.String() }), t.Null()], { description: 'the last backup that failed, until one succeeds' }),
    },
    { description: 'backups that run themselves (PARLEY_BACKUP_EVERY)' },
  ),
})
export type OperationsStatus = Static<typeof OperationsStatus>

export const RecentLogs = t.Object({
  lines: t.Array(t.String(), { description: 'the last log lines (at most 200), oldest first, each one JSON object as written to stdout' }),
})
export type RecentLogs = Static<typeof RecentLogs>
