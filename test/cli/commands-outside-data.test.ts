import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { compiledParley } from '../support/compiled-parley.ts'
import { runParley } from '../support/run-parley.ts'

const binary = compiledParley()
const work = mkdtempSync(join(tmpdir(), 'parley-cli-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function parley(args: string[], env: Record<string, string>, cwd = work) {
  const result = Bun.spawnSync([binary, ...args], { cwd, env: { ...process.env, ...env } })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

describe('the CLI away from its data', () => {
  test('keys list in a folder without a database says so and creates nothing', () => {
    const elsewhere = mkdtempSync(join(work, 'elsewhere-'))
    const result = parley(['keys', 'list'], { PARLEY_DATA_DIR: '' }, elsewhere)
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      `parley: no database at ${join(elsewhere, 'data', 'parley.db')}; run this where parley serve keeps its data, or set PARLEY_DATA_DIR`,
    )
    expect(existsSync(join(elsewhere, 'data', 'parley.db'))).toBe(false)
    expect(parley(['keys', 'create', '--name', 'x'], { PARLEY_DATA_DIR: join(elsewhere, 'data') }).code).toBe(1)
    expect(existsSync(join(elsewhere, 'data', 'parley.db'))).toBe(false)
  })

  test('backup into a folder that does not exist yet makes the folder and a whole copy', async () => {
    const dataDir = join(work, 'data')
    // The database a first start makes, as users get it.
    const server = await runParley([binary], { PARLEY_DATA_DIR: dataDir })
    await server.stop('SIGTERM')
    const target = join(work, 'backups', 'nightly', 'parley.db')
    const result = parley(['backup', target], { PARLEY_DATA_DIR: dataDir })
    expect(result.stderr).toBe('')
    expect(result.stdout.trim()).toBe(`backup written to ${target}`)
    const copy = new Database(target, { readonly: true })
    expect(copy.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()?.integrity_check).toBe('ok')
    expect(copy.query<{ n: number }, []>('SELECT count(*) AS n FROM workspaces').get()?.n).toBe(1)
    copy.close()
  })
})
