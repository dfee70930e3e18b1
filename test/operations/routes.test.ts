import { Database } from 'bun:sqlite'
import { expect } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { activePerson, browser, PASSWORD } from '../people/support/people-context.ts'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { createChatbot } from '../flows/flow-fixtures.ts'
import pkg from '../../package.json'

const OPS = '/api/dev/v1/operations'

async function setup(app: TestApp) {
  const botId = await createChatbot(app, 'Kept in the backup')
  const admin = await activePerson(app, 'ada@acme.io', 'admin')
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const otherKey = app.otherWorkspaceKey()
  const otherAdmin = await activePerson(app, 'lee@other.io', 'admin', otherKey)
  // The requests above carried all of these: none of them may show in the logs.
  const secrets = [app.key, otherKey, PASSWORD, ...[admin, agent, otherAdmin].map((p) => p.cookie.replace('parley_session=', ''))]
  return { app, botId, admin, agent, otherKey, otherAdmin, secrets }
}
type Ctx = Awaited<ReturnType<typeof setup>>

scenarios<Ctx>('operations', setup, [
  {
    name: 'the status tells the version, uptime and database size',
    method: 'GET',
    path: OPS,
    status: 200,
    check: ({ body }) => {
      expect(body.version).toBe(pkg.version)
      expect(body.uptime_seconds).toBeGreaterThanOrEqual(0)
      expect(body.database_bytes).toBeGreaterThan(4096)
      expect(body.database_bytes % 4096).toBe(0)
      expect(typeof body.wal_bytes).toBe('number')
      expect(body.database).toEqual({ engine: 'sqlite', location: expect.stringMatching(/parley\.db$/) })
      expect(Date.parse(body.started_at)).toBeLessThanOrEqual(Date.now())
    },
  },
  { name: 'an admin of the installation sees it with the session cookie', method: 'GET', path: OPS, key: null, headers: (c) => browser(c.admin.cookie), status: 200 },
  { name: 'an agent does not see the status', method: 'GET', path: OPS, key: null, headers: (c) => browser(c.agent.cookie), status: 403, code: 'forbidden' },
  { name: 'an agent does not see the logs', method: 'GET', path: `${OPS}/logs`, key: null, headers: (c) => browser(c.agent.cookie), status: 403, code: 'forbidden' },
  { name: 'an agent does not get a backup', method: 'GET', path: `${OPS}/backup`, key: null, headers: (c) => browser(c.agent.cookie), status: 403, code: 'forbidden' },
  { name: "another workspace's key does not see the installation", method: 'GET', path: OPS, key: (c) => c.otherKey, status: 404, code: 'not_found' },
  { name: "another workspace's admin gets no backup of everyone's data", method: 'GET', path: `${OPS}/backup`, key: null, headers: (c) => browser(c.otherAdmin.cookie), status: 404, code: 'not_found' },
  { name: "another workspace's key does not read the logs", method: 'GET', path: `${OPS}/logs`, key: (c) => c.otherKey, status: 404, code: 'not_found' },
  { name: 'without a key the answer is 401', method: 'GET', path: OPS, key: null, status: 401, code: 'unauthorized' },
  {
    name: 'the logs are the latest request lines, oldest first, and hold no key, cookie or password',
    method: 'GET',
    path: `${OPS}/logs`,
    status: 200,
    check: ({ body }, c) => {
      expect(body.lines.length).toBeGreaterThan(5)
      expect(body.lines.length).toBeLessThanOrEqual(200)
      const parsed = body.lines.map((line: string) => JSON.parse(line))
      expect(parsed.some((l: { msg: string; path?: string; status?: number }) => l.msg === 'request' && l.path === '/api/dev/v1/operations' && l.status === 403)).toBe(true)
      const times = parsed.map((l: { time: string }) => l.time)
      expect([...times].sort()).toEqual(times)
      for (const secret of c.secrets) expect(body.lines.join('\n')).not.toContain(secret)
    },
  },
  {
    name: 'the backup is a consistent SQLite copy of the database, and leaves no file behind',
    method: 'GET',
    path: `${OPS}/backup`,
    status: 200,
    check: async (result, c) => {
      expect(result.headers.get('content-type')).toBe('application/vnd.sqlite3')
      expect(result.headers.get('content-disposition')).toMatch(/^attachment; filename="parley-backup-[0-9TZ-]+\.db"$/)
      expect(result.headers.get('cache-control')).toBe('no-store')
      expect(result.text.startsWith('SQLite format 3\u0000')).toBe(true)
      expect(Number(result.headers.get('content-length')) % 4096).toBe(0)
      expect(readdirSync(c.app.dir).filter((name) => name.startsWith('.backup-'))).toEqual([])
    },
  },
])

scenarios<Ctx>('operations: the backup file', setup, [
  {
    name: 'the downloaded backup opens and holds what was stored',
    method: 'GET',
    path: `${OPS}/backup`,
    status: 200,
    inProcessOnly: 'reads the body as bytes from the app in this process (the table\'s calls read it as text)',
    check: async (_result, c) => {
      const response = await c.app.fetch(new Request(`http://localhost${OPS}/backup`, { headers: { authorization: `Bearer ${c.app.key}` } }))
      const dir = mkdtempSync(join(tmpdir(), 'parley-backup-'))
      try {
        const file = join(dir, 'copy.db')
        writeFileSync(file, new Uint8Array(await response.arrayBuffer()))
        const copy = new Database(file, { readonly: true })
        expect(copy.query<{ name: string }, [string]>('SELECT name FROM chatbots WHERE id = ?').get(c.botId)?.name).toBe('Kept in the backup')
        expect(copy.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()?.integrity_check).toBe('ok')
        copy.close()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  },
])
