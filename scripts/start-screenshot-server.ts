import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { createApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { migrate } from '../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../server/db/open-database.ts'
import { listen } from '../server/listen.ts'
import { createLogger } from '../server/support/logger.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts'

/**
 * What the screenshot scripts run on: a real Parley in this process on a free port of
 * 127.0.0.1 (its public URL that address), a fresh database with one workspace, and headless
 * Chromium. `shopSite` serves a sample customer page on a port of its own; `close` stops all.
 */
export async function startScreenshotServer(name: string) {
  // The port is picked first, because the public URL (which the app's cookies and CSP use) names it.
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  const serverUrl = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), `parley-${name}-`))
  const db = openDatabase(join(dataDir, 'parley.db'))
  migrate(db)
  const app = createApp({ db, config: loadConfig({ PARLEY_DATA_DIR: dataDir, PARLEY_PUBLIC_URL: serverUrl, PORT: String(port) }), logger: createLogger('silent') })
  const server = listen(app, { port, hostname: '127.0.0.1' })
  const { workspaceId } = await app.services.workspaces.createKey({ name: 'screenshots' })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
  const shopSite = (html: string) => Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }) })
  const close = async () => {
    await browser.close()
    server.stop(true)
    await app.close()
    closeDatabase(db)
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { app, serverUrl, workspaceId, browser, shopSite, close }
}
