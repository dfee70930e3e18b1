import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { WriteBackup } from '../backups/backup-thread.ts'
import type { BackupSchedule } from '../backups/schedule.ts'
import { notFound } from '../http/api-error.ts'
import type { Clock } from '../support/clock.ts'
import { randomToken } from '../support/random-token.ts'
import type { LogRing } from './log-ring.ts'
import type { OperationsStatus, RecentLogs } from './model.ts'
import type { OperationsStore } from './store.ts'
import { type DatabaseConfig, describeDatabase } from '../db/database-config.ts'

export interface OperationsDeps {
  store: OperationsStore
  dataDir: string
  version: string
  now: Clock
  /** What the logger wrote lately; none when the logger keeps no ring (some tests). */
  recentLogs?: Pick<LogRing, 'lines'>
  monotonicMs?: () => number
  /** Writes a backup off the serving thread. */
  writeBackup: WriteBackup
  backups: Pick<BackupSchedule, 'status'>
  /** Which database this Parley keeps its data in, for the page to name it. */
  database: DatabaseConfig
}

export interface BackupFile {
  name: string
  bytes: number
  stream: ReadableStream<Uint8Array>
}

const CHUNK = 256 * 1024

export type OperationsService = ReturnType<typeof operationsService>

/**
 * The installation as a whole: its version, uptime and database, a backup to download, the
 * latest log lines. They span every workspace, so only the installation's own workspace (the
 * one the first start made) sees them; any other answers 404, as for what it does not own.
 */
export function operationsService({ store, dataDir, version, now, recentLogs, monotonicMs = () => performance.now(), writeBackup, backups, database }: OperationsDeps) {
  const startedAt = now()
  const startedMs = monotonicMs()
  const databaseFile = join(dataDir, 'parley.db')

  async function requireInstallation(workspaceId: string): Promise<void> {
    if ((await store.installationWorkspaceId()) !== workspaceId) throw notFound('operations')
  }

  return {
    async status(workspaceId: string): Promise<OperationsStatus> {
      await requireInstallation(workspaceId)
      const wal = `${databaseFile}-wal`
      return {
        version,
        started_at: startedAt,
        uptime_seconds: Math.floor((monotonicMs() - startedMs) / 1000),
        database: { engine: database.kind === 'sqlite' ? 'sqlite' : 'postgresql', location: describeDatabase(database) },
        database_bytes: await store.databaseBytes(),
        wal_bytes: database.kind === 'sqlite' && existsSync(wal) ? statSync(wal).size : 0,
        backups: backups.status(),
      }
    },

    async logs(workspaceId: string): Promise<RecentLogs> {
      await requireInstallation(workspaceId)
      return { lines: recentLogs?.lines() ?? [] }
    },

    /**
     * A consistent, checked copy of the database (`parley backup`'s, written in its own thread),
     * streamed: the copy is opened and then unlinked at once, so nothing of it stays on disk
     * whether the download ends, fails or is abandoned.
     */
    async backup(workspaceId: string): Promise<BackupFile> {
      await requireInstallation(workspaceId)
      const target = join(dataDir, `.backup-${randomToken(16)}.db`)
      let fd: number
      try {
        await writeBackup(databaseFile, target)
        fd = openSync(target, 'r')
      } finally {
        rmSync(target, { force: true })
      }
      const bytes = fstatSync(fd).size
      let closed = false
      const close = () => {
        if (!closed) closeSync(fd)
        closed = true
      }
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = new Uint8Array(CHUNK)
          const read = readSync(fd, chunk)
          if (read === 0) {
            close()
            controller.close()
          } else controller.enqueue(read === CHUNK ? chunk : chunk.subarray(0, read))
        },
        cancel: close,
      })
      const stamp = now().replace(/[:.]/g, '-')
      return { name: `parley-backup-${stamp}.db`, bytes, stream }
    },
  }
}
