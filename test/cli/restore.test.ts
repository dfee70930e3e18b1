import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { closeSync, copyFileSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrations } from '../../server/db/migrations/index.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

/** `parley restore FILE`, run as users run it: the compiled binary, on a folder a server made. */
const binary = compiledParley()
const work = mkdtempSync(join(tmpdir(), 'parley-restore-'))
const dataDir = join(work, 'data')
const backupFile = join(work, 'nightly.db')
let server: RunningParley | null = null
let key = ''
afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

function parley(args: string[], env: Record<string, string> = { PARLEY_DATA_DIR: dataDir }) {
  const result = Bun.spawnSync([binary, ...args], { cwd: work, env: { ...process.env, ...env } })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

async function chatbotNames(): Promise<string[]> {
  const answer = await fetch(`${server!.url}/api/dev/v1/chatbots`, { headers: { authorization: `Bearer ${key}` } })
  return ((await answer.json()) as { items: { name: string }[] }).items.map((bot) => bot.name).sort()
}

async function addChatbot(name: string): Promise<void> {
  const answer = await fetch(`${server!.url}/api/dev/v1/chatbots`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
  expect(answer.status).toBe(201)
}

function namesIn(file: string): string[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.query<{ name: string }, []>('SELECT name FROM chatbots ORDER BY name').all().map((row) => row.name)
  } finally {
    db.close()
  }
}

describe('parley restore', () => {
  beforeAll(async () => {
    server = await runParley([binary], { PARLEY_DATA_DIR: dataDir })
    key = /shown this once:\s+(pk_[0-9A-Za-z]+)/.exec(server.output())?.[1] as string
    await addChatbot('Before the backup')
    expect(parley(['backup', backupFile]).code).toBe(0)
    await addChatbot('After the backup')
  })

  test('refuses while a server uses the folder, and changes nothing', () => {
    const before = readdirSync(dataDir).toSorted()
    const result = parley(['restore', backupFile])
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(`parley: ${join(dataDir, 'parley.db')} is in use: a Parley server (or another parley command) has it open. Stop it first (for example: systemctl stop parley), then restore`)
    expect(readdirSync(dataDir).toSorted()).toEqual(before)
  })

  test('refuses a file that is not a whole Parley backup of this version or older, and changes nothing', async () => {
    await server!.stop()
    server = null
    const before = readdirSync(dataDir).toSorted()
    const text = join(work, 'notes.txt')
    writeFileSync(text, 'not a database')
    const corrupt = join(work, 'corrupt.db')
    copyFileSync(backupFile, corrupt)
    const fd = openSync(corrupt, 'r+')
    for (let page = 1; page < 12; page++) writeSync(fd, new Uint8Array(12).fill(0xff), 0, 12, 4096 * page)
    closeSync(fd)
    const newer = join(work, 'newer.db')
    copyFileSync(backupFile, newer)
    const db = new Database(newer)
    db.query("INSERT INTO schema_migrations (id, name, applied_at) VALUES (9999, 'from_the_future', '2030-01-01')").run()
    db.close()
    const newest = migrations.at(-1)?.id
    expect(parley(['restore', text]).stderr.trim()).toBe(`parley: ${text} is not a SQLite database`)
    expect(parley(['restore', corrupt]).stderr.trim()).toStartWith(`parley: ${corrupt} failed its integrity check: `)
    expect(parley(['restore', newer]).stderr.trim()).toBe(
      `parley: ${newer} was written by a newer Parley (its schema is at migration 9999; this Parley knows up to ${newest}): restore it with that version or a newer one`,
    )
    expect(parley(['restore', join(work, 'missing.db')]).code).toBe(1)
    expect(readdirSync(dataDir).toSorted()).toEqual(before)
    expect(namesIn(join(dataDir, 'parley.db'))).toContain('After the backup')
  })

  test('puts the backup in place, keeps the replaced database beside it, and the server starts on it', async () => {
    const result = parley(['restore', backupFile])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const aside = readdirSync(dataDir).find((name) => name.startsWith('parley.db.before-restore-')) as string
    expect(aside).toMatch(/^parley\.db\.before-restore-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/)
    expect(result.stdout.split('\n')[0]).toBe(`restored ${backupFile} (schema at migration ${migrations.at(-1)?.id}) into ${join(dataDir, 'parley.db')}`)
    expect(result.stdout).toContain(`the database it replaced is kept at ${join(dataDir, aside)}`)
    expect(namesIn(join(dataDir, aside))).toContain('After the backup')
    server = await runParley([binary], { PARLEY_DATA_DIR: dataDir })
    const names = await chatbotNames()
    expect(names).toContain('Before the backup')
    expect(names).not.toContain('After the backup')
  })

  test('restores onto a new machine, where there is no database yet', () => {
    const fresh = join(work, 'fresh')
    const result = parley(['restore', backupFile], { PARLEY_DATA_DIR: fresh })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('there was no database there before')
    expect(readdirSync(fresh)).toEqual(['parley.db'])
    expect(namesIn(join(fresh, 'parley.db'))).toContain('Before the backup')
  })
})
