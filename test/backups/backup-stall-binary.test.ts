import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { migratedDatabase } from '../support/migrated-database.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

/**
 * A backup reads and checks every page of the database: on the serving thread it would hold
 * every request for as long. Against the compiled binary, over a database of about 48 MB, a
 * request sent once a backup's file has appeared must be answered while that file is still
 * being written: for the scheduled backup and for the console's download.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'parley-stall-'))
const backupDir = join(dataDir, 'backups')
let parley: RunningParley | null = null
afterAll(async () => {
  await parley?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

async function appeared(dir: string, match: (name: string) => boolean, what: string): Promise<string> {
  for (let waited = 0; waited < 20_000; waited += 5) {
    const found = existsSync(dir) ? readdirSync(dir).find(match) : undefined
    if (found) return join(dir, found)
    await Bun.sleep(5)
  }
  throw new Error(`${what} never appeared`)
}

test('requests are answered while a backup is being written, scheduled or downloaded', async () => {
  const db = migratedDatabase(join(dataDir, 'parley.db'))
  db.exec('CREATE TABLE filler (data BLOB)')
  const insert = db.query('INSERT INTO filler (data) VALUES (randomblob(1048576))')
  for (let i = 0; i < 48; i++) insert.run()
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
  mkdirSync(backupDir)

  parley = await runParley([compiledParley()], { PARLEY_DATA_DIR: dataDir, PARLEY_BACKUP_EVERY: '6h', PARLEY_BACKUP_DIR: backupDir })
  const key = /shown this once:\s+(pk_[0-9A-Za-z]+)/.exec(parley.output())?.[1]
  const scheduled = await appeared(backupDir, (name) => name.endsWith('.partial'), 'the scheduled backup')
  expect((await fetch(`${parley.url}/healthz`)).status).toBe(200)
  expect(existsSync(scheduled)).toBe(true)
  await appeared(backupDir, (name) => name.endsWith('.db'), 'the finished backup')

  const download = fetch(`${parley.url}/api/dev/v1/operations/backup`, { headers: { authorization: `Bearer ${key}` } })
  const downloading = await appeared(dataDir, (name) => name.startsWith('.backup-'), 'the download being written')
  expect((await fetch(`${parley.url}/healthz`)).status).toBe(200)
  expect(existsSync(downloading)).toBe(true)
  const answer = await download
  expect(answer.status).toBe(200)
  expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(48 * 1024 * 1024)
}, 60_000)
