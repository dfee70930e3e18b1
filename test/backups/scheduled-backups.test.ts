import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backupFileName } from '../../server/backups/backup-files.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

const OPS = '/api/dev/v1/operations'
const folders: string[] = []
const apps: TestApp[] = []
afterAll(async () => {
  for (const app of apps) await app.close()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function backupFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-backups-'))
  folders.push(folder)
  return folder
}

function started(env: Record<string, string>): TestApp {
  const app = testApp(env)
  apps.push(app)
  return app
}

async function statusOf(app: TestApp, until: (backups: any) => boolean, what: string): Promise<any> {
  for (let waited = 0; waited < 15_000; waited += 25) {
    const { body } = await app.call('GET', OPS)
    if (until(body.backups)) return body.backups
    await Bun.sleep(25)
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify((await app.call('GET', OPS)).body.backups)}`)
}

describe('backups that run themselves', () => {
  test('with PARLEY_BACKUP_EVERY a backup is written at start, integrity-checked, and listed with its size and age', async () => {
    const dir = backupFolder()
    const app = started({ PARLEY_BACKUP_EVERY: '6h', PARLEY_BACKUP_DIR: dir })
    await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Kept in the backup' } })
    const backups = await statusOf(app, (b) => b.files.length === 1 && !b.running, 'the first backup')
    expect(backups).toMatchObject({ scheduled: true, dir, every_seconds: 21_600, keep: 7, last_failure: null })
    const [file] = backups.files
    expect(file.name).toMatch(/^parley-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/)
    expect(file.bytes).toBe(statSync(join(dir, file.name)).size)
    expect(file.age_seconds).toBeGreaterThanOrEqual(0)
    expect(Date.parse(backups.next_at) - Date.parse(file.created_at)).toBe(21_600_000)
    expect(statSync(join(dir, file.name)).mode & 0o777).toBe(0o600)
    const copy = new Database(join(dir, file.name), { readonly: true })
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    copy.close()
    expect(app.logLines.some((line) => line.includes('"msg":"backup written"'))).toBe(true)
  })

  test('only the newest PARLEY_BACKUP_KEEP are kept; other files in the folder are left alone', async () => {
    const dir = backupFolder()
    const day = 86_400_000
    const old = Array.from({ length: 8 }, (_, k) => backupFileName(new Date(Date.now() - (k + 1) * day)))
    for (const name of [...old, 'notes.txt', 'parley-manual.db']) writeFileSync(join(dir, name), 'x')
    const app = started({ PARLEY_BACKUP_EVERY: '1d', PARLEY_BACKUP_DIR: dir, PARLEY_BACKUP_KEEP: '3' })
    const backups = await statusOf(app, (b) => b.files.length === 3 && !old.includes(b.files[0].name), 'the new backup and the pruning')
    expect(backups.files.map((f: { name: string }) => f.name).slice(1)).toEqual(old.slice(0, 2))
    expect(readdirSync(dir).toSorted()).toEqual([...old.slice(0, 2), backups.files[0].name, 'notes.txt', 'parley-manual.db'].toSorted())
  })

  test('a restart does not back up again before the newest backup is due', async () => {
    const dir = backupFolder()
    const recent = new Date(Date.now() - 10_000)
    writeFileSync(join(dir, backupFileName(recent)), 'x')
    const app = started({ PARLEY_BACKUP_EVERY: '1h', PARLEY_BACKUP_DIR: dir })
    await Bun.sleep(300)
    const { body } = await app.call('GET', OPS)
    expect(body.backups.files).toHaveLength(1)
    expect(Date.parse(body.backups.next_at)).toBe(Math.floor(recent.getTime() / 1000) * 1000 + 3_600_000)
  })

  test('a failure is logged and shown, and nothing half-written is left', async () => {
    const blocker = join(backupFolder(), 'a-file')
    writeFileSync(blocker, 'not a folder')
    const app = started({ PARLEY_BACKUP_EVERY: '6h', PARLEY_BACKUP_DIR: join(blocker, 'backups') })
    const backups = await statusOf(app, (b) => b.last_failure !== null, 'the failure')
    expect(backups.files).toEqual([])
    expect(Date.parse(backups.last_failure.at)).toBeLessThanOrEqual(Date.now())
    expect(backups.last_failure.error).toContain(blocker)
    const logged = app.logLines.map((line) => JSON.parse(line)).find((line) => line.msg === 'backup failed')
    expect(logged).toMatchObject({ level: 'error', error: expect.stringContaining(blocker) })
  })

  test('without PARLEY_BACKUP_EVERY nothing is scheduled', async () => {
    const app = started({})
    const { body } = await app.call('GET', OPS)
    expect(body.backups).toEqual({ scheduled: false, dir: null, every_seconds: null, keep: null, files: [], running: false, next_at: null, last_failure: null })
  })
})
