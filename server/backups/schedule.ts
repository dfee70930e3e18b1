import { join } from 'node:path'
import type { BackupSettings } from '../config.ts'
import type { Logger } from '../support/logger.ts'
import { backupFileName, listBackups, pruneBackups } from './backup-files.ts'
import type { WriteBackup } from './backup-thread.ts'

/** A timer never waits longer than this at once: long waits are re-checked, as Node timers overflow past 24.8 days. */
const LONGEST_WAIT_MS = 3_600_000
/** After a failure the next try comes sooner than a whole period (a full disk freed, a folder made). */
const RETRY_AFTER_FAILURE_MS = 10 * 60_000

export interface BackupsStatus {
  scheduled: boolean
  dir: string | null
  every_seconds: number | null
  keep: number | null
  files: { name: string; bytes: number; created_at: string; age_seconds: number }[]
  running: boolean
  next_at: string | null
  last_failure: { at: string; error: string } | null
}

export type BackupSchedule = ReturnType<typeof backupSchedule>

export interface BackupScheduleDeps {
  /** PARLEY_BACKUP_*; null when no backups are scheduled. */
  settings: BackupSettings | null
  databaseFile: string
  write: WriteBackup
  logger: Logger
  nowMs?: () => number
}

/**
 * Backups that run themselves (PARLEY_BACKUP_EVERY): one at start unless the newest in the
 * folder is not due yet, then one every period, each written and integrity-checked in its own
 * thread, the newest PARLEY_BACKUP_KEEP kept. The folder is the record: the schedule starts
 * from the newest backup it finds, so a restart neither repeats nor skips one.
 */
export function backupSchedule({ settings, databaseFile, write, logger, nowMs = Date.now }: BackupScheduleDeps) {
  let running: Promise<void> | null = null
  let lastFailure: BackupsStatus['last_failure'] = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let closed = false
  let nextMs = 0

  function arm(): void {
    if (closed || !settings) return
    timer = setTimeout(tick, Math.max(0, Math.min(nextMs - nowMs(), LONGEST_WAIT_MS)))
  }

  function tick(): void {
    timer = null
    if (closed || !settings) return
    if (nowMs() < nextMs) return arm()
    const { dir, everyMs, keep } = settings
    // Named to the second, as the next one is timed from it.
    const at = new Date(Math.floor(nowMs() / 1000) * 1000)
    const target = join(dir, backupFileName(at))
    running = write(databaseFile, target).then(
      (written) => {
        lastFailure = null
        nextMs = at.getTime() + everyMs
        const pruned = pruneBackups(dir, keep)
        logger.info('backup written', { file: written.file, bytes: written.bytes, schema_version: written.schemaVersion, pruned })
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error)
        lastFailure = { at: at.toISOString(), error: message }
        nextMs = at.getTime() + Math.min(everyMs, RETRY_AFTER_FAILURE_MS)
        logger.error('backup failed', { file: target, error: message })
      },
    )
    void running.finally(() => {
      running = null
      arm()
    })
  }

  if (settings) {
    pruneBackups(settings.dir, settings.keep)
    const newest = listBackups(settings.dir)[0]
    nextMs = newest ? newest.createdMs + settings.everyMs : nowMs()
    logger.info('backups scheduled', { dir: settings.dir, every_seconds: settings.everyMs / 1000, keep: settings.keep, next_at: new Date(nextMs).toISOString() })
    arm()
  }

  return {
    status(): BackupsStatus {
      if (!settings) return { scheduled: false, dir: null, every_seconds: null, keep: null, files: [], running: false, next_at: null, last_failure: null }
      const now = nowMs()
      return {
        scheduled: true,
        dir: settings.dir,
        every_seconds: settings.everyMs / 1000,
        keep: settings.keep,
        files: listBackups(settings.dir).map((file) => ({
          name: file.name,
          bytes: file.bytes,
          created_at: new Date(file.createdMs).toISOString(),
          age_seconds: Math.max(0, Math.floor((now - file.createdMs) / 1000)),
        })),
        running: running !== null,
        next_at: new Date(nextMs).toISOString(),
        last_failure: lastFailure,
      }
    },
    /** The newest backup's time (ms), for the metrics; null when there is none. */
    newestMs: (): number | null => (settings ? (listBackups(settings.dir)[0]?.createdMs ?? null) : null),
    /** Stops the schedule; a backup under way is let finish (its thread reads the database the server is about to close). */
    async close(): Promise<void> {
      closed = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
