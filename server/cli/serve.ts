import { join } from 'node:path'
import { createApp } from '../app.ts'
import type { Config } from '../config.ts'
import { migrate } from '../db/migrate.ts'
import { closeDatabase, openDatabase } from '../db/open-database.ts'
import { createLogger } from '../support/logger.ts'
import { VERSION } from '../version.ts'
import { firstStart } from './first-start.ts'

/** The largest body any route accepts; each route's own limit is enforced by the body parser. */
const HARD_BODY_LIMIT = 16 * 1024 * 1024

/** `parley serve`: migrate, listen, and on SIGTERM/SIGINT finish in-flight work and close cleanly. */
export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel)
  const db = openDatabase(join(config.dataDir, 'parley.db'))
  const { applied } = migrate(db)
  if (applied.length > 0) logger.info('migrations applied', { migrations: applied })
  const app = createApp({ db, config, logger })
  firstStart(app, (line) => console.log(line))

  app.http.listen({ port: config.port, hostname: config.host, maxRequestBodySize: HARD_BODY_LIMIT })
  const port = app.http.server?.port
  logger.info('listening', { version: VERSION, url: `http://${config.host}:${port}`, public_url: config.publicUrl, data_dir: config.dataDir })
  logger.flush()

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    try {
      // Stop accepting; in-flight requests finish before the promise settles.
      await app.http.server?.stop(false)
      await app.close()
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
}
