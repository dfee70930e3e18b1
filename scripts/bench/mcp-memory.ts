#!/usr/bin/env bun
/**
 * The memory half of bench:mcp, in its own process so that nothing else is on its heap:
 * a Parley (in-process, over a temporary database) with N mcp integrations on the server at
 * argv[2]; memory after creating them, then after one tool call on each (every integration
 * holding an idle, initialized connection). Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { createLogger } from '../../server/support/logger.ts'

const serverUrl = process.argv[2] as string
const COUNT = Number(process.argv[3] ?? 1000)
const dir = mkdtempSync(join(tmpdir(), 'parley-bench-mcp-'))
const db = openDatabase(join(dir, 'parley.db'))
migrate(db)
const app = createApp({
  db,
  config: loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_RATE_LIMIT: '10000000' }),
  logger: createLogger('silent'),
  // Measures 1,000 held connections: above the default cap (see docs/mcp.md, Connections).
  tuning: { mcp: { maxConnections: COUNT + 10 } },
})
const key = (await app.services.workspaces.createKey({ name: 'bench' })).key
const call = async (method: string, path: string, body?: unknown) => {
  const response = await app.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

const bot = (await call('POST', '/api/dev/v1/chatbots', { name: 'Bench' })).body.id
const base = `/api/dev/v1/chatbots/${bot}/integrations/mcp`
const ids: string[] = []
for (let i = 0; i < COUNT; i++) ids.push((await call('POST', base, { name: `server-${i}`, url: serverUrl })).body.id)

function measure() {
  Bun.gc(true)
  const { rss, heapUsed } = process.memoryUsage()
  return { rss, heapUsed }
}
// Warm the code paths with one integration outside the measured set.
const warm = (await call('POST', base, { name: 'warm-up', url: serverUrl })).body.id
await call('POST', `${base}/${warm}/tools/echo/call`, { arguments: { text: 'warm' } })
const before = measure()
for (let i = 0; i < ids.length; i += 50) {
  const answers = await Promise.all(ids.slice(i, i + 50).map((id) => call('POST', `${base}/${id}/tools/echo/call`, { arguments: { text: 'x' } })))
  for (const answer of answers) if (answer.status !== 200) throw new Error(`a call answered ${answer.status}: ${JSON.stringify(answer.body)}`)
}
await Bun.sleep(500)
const after = measure()
const held = app.services.mcp.manager.size()
console.log(JSON.stringify({ count: COUNT, held, before, after }))
await app.close()
closeDatabase(db)
rmSync(dir, { recursive: true, force: true })
process.exit(0)
