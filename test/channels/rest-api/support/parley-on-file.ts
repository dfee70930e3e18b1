import { join } from 'node:path'
import { type AppDeps, createApp } from '../../../../server/app.ts'
import { loadConfig } from '../../../../server/config.ts'
import { migrate } from '../../../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../../../server/db/open-database.ts'
import { createLogger } from '../../../../server/support/logger.ts'

/**
 * A Parley process over the database file in `dir`, which outlives it: close one, open the
 * next on the same file, and it carries on (a restart). Called in-process, like testApp.
 */
export function parleyOnFile(dir: string, env: Record<string, string>, tuning: AppDeps['tuning'] = {}) {
  const config = loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_PUBLIC_URL: 'http://parley.test', PARLEY_PUBLIC_RATE_LIMIT: '0', ...env })
  const db = openDatabase(join(dir, 'parley.db'))
  migrate(db)
  const app = createApp({ db, config, logger: createLogger('silent'), tuning })

  async function call(method: string, path: string, options: { body?: unknown; key?: string | null } = {}) {
    const headers: Record<string, string> = {}
    if (options.key) headers.authorization = `Bearer ${options.key}`
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const response = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body }))
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text }
  }

  return {
    app,
    call,
    /** Stops as `parley serve` does on SIGTERM: the domains close, then the database. */
    async stop() {
      await app.close()
      closeDatabase(db)
    },
  }
}
