import type { Database } from 'bun:sqlite'
import type { Logger } from '../support/logger.ts'

const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1000
/** A log grown past this by a burst is cut back to it when it starts over. */
const WAL_FILE_LIMIT_BYTES = 64 * 1024 * 1024

export interface BackgroundCheckpoints {
  /** Resolves once the thread has closed its connection (at once when it never started). */
  stop(): Promise<void>
  /** How many passes the thread was asked for so far. */
  passes(): number
}

export interface BackgroundCheckpointOptions {
  file: string
  /** The worker's entry module (server/threads.ts). */
  workerUrl: string
  logger: Logger
  intervalMs?: number
  /** WAL frames past which the serving thread lets the log start over. */
  restartFrames?: number
}

/**
 * Moves WAL checkpoints off the serving thread. SQLite folds the log back into the database
 * file in whichever connection commits past 1,000 frames, which under a steady chat load is
 * the serving thread, and copying those pages was about an eighth of its time
 * (docs/performance.md). Here, every `intervalMs`, a worker thread with its own connection
 * copies what the log holds into the file (PASSIVE: it never waits for the writer, nor the
 * writer for it).
 *
 * A log only starts over when all of it has been copied before the next write begins, which
 * a thread racing a busy writer rarely sees. So the serving connection keeps SQLite's
 * automatic checkpoint, at `restartFrames` instead of 1,000: right after the commit that
 * crosses it, with only the frames written since the worker's last pass left to copy, and
 * its next write starts the log over. If the worker happens to be copying at that moment,
 * SQLite skips and tries again at the next commit. If the thread cannot start or fails,
 * SQLite's default is back in place.
 */
export function backgroundCheckpoints(db: Database, options: BackgroundCheckpointOptions): BackgroundCheckpoints {
  const { file, workerUrl, logger, intervalMs = 50, restartFrames = 4000 } = options
  let worker: Worker
  try {
    worker = new Worker(workerUrl)
  } catch (error) {
    logger.warn('background checkpoints unavailable', { error: String(error) })
    return { stop: async () => {}, passes: () => 0 }
  }
  let timer: ReturnType<typeof setInterval> | null = null
  let working = false
  let failed = false
  // A pass with nothing written since the last whole one would copy nothing: skipped, so that
  // an idle or read-only server (every GET) pays no thread hop every interval.
  const changesNow = db.query<{ changes: number }, []>('SELECT total_changes() AS changes')
  let changesAtLastPass = -1
  let caughtUp = false
  let passes = 0

  function tick(): void {
    if (working) return
    const changes = changesNow.get()?.changes ?? -1
    if (caughtUp && changes === changesAtLastPass) return
    changesAtLastPass = changes
    passes += 1
    working = true
    worker.postMessage('checkpoint')
  }

  function automaticCheckpointsBack(): void {
    if (timer) clearInterval(timer)
    timer = null
    db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`)
  }

  worker.onmessage = (event: MessageEvent) => {
    const data = event.data as 'ready' | 'checkpointed' | 'partial' | 'stopped' | { error: string }
    if (data === 'ready') {
      db.exec(`PRAGMA wal_autocheckpoint = ${restartFrames}`)
      db.exec(`PRAGMA journal_size_limit = ${WAL_FILE_LIMIT_BYTES}`)
      timer = setInterval(tick, intervalMs)
      logger.info('background checkpoints on', { interval_ms: intervalMs })
    } else if (data === 'checkpointed' || data === 'partial') {
      working = false
      caughtUp = data === 'checkpointed'
    } else if (typeof data === 'object') {
      working = false
      caughtUp = false
      logger.warn('background checkpoint failed', { error: data.error })
    }
  }
  worker.onerror = (event) => {
    failed = true
    automaticCheckpointsBack()
    logger.warn('background checkpoints stopped', { error: event.message })
  }
  worker.postMessage({ file })

  let stopped: Promise<void> | null = null
  return {
    passes: () => passes,
    stop() {
      automaticCheckpointsBack()
      stopped ??= failed
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timeout)
              worker.terminate()
              resolve()
            }
            const timeout = setTimeout(done, 2000)
            worker.addEventListener('message', (event: MessageEvent) => {
              if (event.data === 'stopped') done()
            })
            worker.postMessage('stop')
          })
      return stopped
    },
  }
}
