import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'

const binary = compiledParley()
const work = mkdtempSync(join(tmpdir(), 'parley-database-choice-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function parley(args: string[], env: Record<string, string>) {
  const result = Bun.spawnSync([binary, ...args], { cwd: work, env: { ...process.env, PARLEY_DATA_DIR: join(work, 'data'), ...env } })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

describe('the binary and PARLEY_DATABASE_URL', () => {
  test('a bad URL stops it at start with one line, the password masked', () => {
    const result = parley(['serve'], { PARLEY_DATABASE_URL: 'mysql://parley:s3cret@db/parley' })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('parley: PARLEY_DATABASE_URL must be a postgres:// URL such as postgres://user:password@host:5432/parley, got "mysql://parley:***@db/parley"\n')
  })

  // Until every store has its PostgreSQL side (docs/postgres-plan.md), a PostgreSQL URL must not quietly become a SQLite file.
  test('a PostgreSQL URL is refused by every command with one line, and no SQLite file is made', () => {
    for (const args of [['serve'], ['keys', 'list'], ['users', 'list']]) {
      const result = parley(args, { PARLEY_DATABASE_URL: 'postgres://parley:s3cret@127.0.0.1:1/parley' })
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({
        args,
        code: 1,
        stderr: 'parley: PARLEY_DATABASE_URL is set (postgres://parley:***@127.0.0.1:1/parley), but this build keeps its data in SQLite only: the PostgreSQL backend is not finished. Unset it to use PARLEY_DATA_DIR.\n',
      })
    }
    expect(existsSync(join(work, 'data'))).toBe(false)
  })

  test('backup and restore on PostgreSQL name the tools to use instead, without the password, and touch nothing', () => {
    const env = { PARLEY_DATABASE_URL: 'postgres://parley:s3cret@db.internal:6432/parley_prod' }
    const backup = parley(['backup', join(work, 'copy.dump')], env)
    expect(backup.code).toBe(1)
    expect(backup.stderr).toContain(`pg_dump --format=custom --file=${join(work, 'copy.dump')} --host=db.internal --port=6432 --username=parley --dbname=parley_prod`)
    const restore = parley(['restore', join(work, 'copy.dump')], env)
    expect(restore.code).toBe(1)
    expect(restore.stderr).toContain(`pg_restore --clean --if-exists --no-owner --host=db.internal --port=6432 --username=parley --dbname=parley_prod ${join(work, 'copy.dump')}`)
    for (const result of [backup, restore]) expect(result.stderr).not.toContain('s3cret')
    expect(existsSync(join(work, 'copy.dump'))).toBe(false)
    expect(existsSync(join(work, 'data'))).toBe(false)
  })
})
