import { join } from 'node:path'
import { createApp } from '../app.ts'
import type { Config } from '../config.ts'
import { backgroundCheckpoints } from '../db/background-checkpoints.ts'
import { migrate } from '../db/migrate.ts'
import { closeDatabase, openDatabase } from '../db/open-database.ts'
import { logRing, ringedSink } from '../operations/log-ring.ts'
import { createLogger, stdoutSink } from '../support/logger.ts'
import { VERSION } from '../version.ts'
import { listen } from '../listen.ts'
import { CHECKPOINT_WORKER_URL } from '../threads.ts'
import { firstStart } from './first-start.ts'

/** `parley serve`: migrate, listen, and on SIGTERM/SIGINT finish in-flight work and close cleanly. */
export async function serve(config: Config): Promise<void> {
  const recentLogs = logRing()
  const logger = createLogger(config.logLevel, ringedSink(stdoutSink(), recentLogs))
  const file = join(config.dataDir, 'parley.db')
  const db = openDatabase(file)
  const { applied } = migrate(db)
  if (applied.length > 0) logger.info('migrations applied', { migrations: applied })
  const checkpoints = backgroundCheckpoints(db, { file, workerUrl: CHECKPOINT_WORKER_URL, logger })
  const app = createApp({ db, config, logger, recentLogs })
  await firstStart(app, config.publicUrl, (line) => console.log(line))

  const server = listen(app, { port: config.port, hostname: config.host })
  // Before "listening" is said: a supervisor may stop Parley the moment it hears it.
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    try {
      // Stop accepting; in-flight requests finish before the promise settles, once the
      // domains have closed what they hold open (widget sockets, workers).
      const drained = server.stop(false)
      await app.close()
      await drained
      await checkpoints.stop()
      closeDatabase(db)
      logger.info('stopped')
    } catch (error) {
      logger.error('unclean shutdown', { error: String(error) })
      process.exitCode = 1
    } finally {
      logger.flush()
      process.exit()
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  const port = server.port
  console.log(`parley ${VERSION} listening on port ${port} (${config.publicUrl})`)
  logger.info('listening', { version: VERSION, url: `http://${config.host}:${port}`, public_url: config.publicUrl, data_dir: config.dataDir })
  if (config.passwordHashing !== 'argon2id') logger.warn('password hashes are weak (PARLEY_TEST_PASSWORD_HASHING=weak with PARLEY_TEST_MODE=1): for test suites only')
  logger.flush()
}
