import type { WriteBackup } from '../backups/backup-thread.ts'
import { backupSchedule } from '../backups/schedule.ts'
import type { Config } from '../config.ts'
import { healthRoutes } from './health-routes.ts'
import type { Authenticate } from '../people/authenticate.ts'
import type { Clock } from '../support/clock.ts'
import type { Logger } from '../support/logger.ts'
import type { LogRing } from './log-ring.ts'
import { operationsRoutes } from './routes.ts'
import { operationsService } from './service.ts'
import type { OperationsStore } from './store.ts'

export interface OperationsModuleDeps {
  store: OperationsStore
  config: Pick<Config, 'backups' | 'dataDir' | 'database'>
  version: string
  now: Clock
  logger: Logger
  recentLogs?: Pick<LogRing, 'lines'>
  /** The SQLite file the scheduled backups copy. */
  databaseFile: string
  /** Writes a backup off the serving thread (server/threads.ts names the worker). */
  writeBackup: WriteBackup
}

/** Running this Parley: its health check, the operations page's status and logs, and the scheduled backups. */
export function operationsModule({ store, config, version, now, logger, recentLogs, databaseFile, writeBackup }: OperationsModuleDeps) {
  const backups = backupSchedule({ settings: config.backups, databaseFile, write: writeBackup, logger })
  const operations = operationsService({ store, dataDir: config.dataDir, version, now, recentLogs, writeBackup, backups, database: config.database })
  return {
    backups,
    /** The developer API's operations routes (behind `auth`). */
    routes: (auth: Authenticate) => operationsRoutes(auth, operations),
    /** `/healthz`, for load balancers and service managers: no key. */
    publicRoutes: healthRoutes(store),
    close: () => backups.close(),
  }
}
