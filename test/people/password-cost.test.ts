import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../server/config.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { activePerson } from './support/people-context.ts'

const PRODUCTION_COST = '$argon2id$v=19$m=65536,t=2,p=1$'
const WEAK_COST = '$argon2id$v=19$m=64,t=1,p=1$'
/** testApp's environment without the test-only cost it sets by default. */
const AS_PRODUCTION = { PARLEY_TEST_MODE: '', PARLEY_TEST_PASSWORD_HASHING: '' }

const storedHash = (app: TestApp, email: string) =>
  app.db.query<{ password_hash: string }, [string]>('SELECT password_hash FROM users WHERE email = ?').get(email)?.password_hash ?? ''

describe('PARLEY_TEST_PASSWORD_HASHING', () => {
  test('is argon2id at full cost unless asked; weak only together with PARLEY_TEST_MODE=1', () => {
    expect(loadConfig({}).passwordHashing).toBe('argon2id')
    expect(loadConfig({ PARLEY_TEST_MODE: '1' }).passwordHashing).toBe('argon2id')
    expect(loadConfig({ PARLEY_TEST_MODE: '1', PARLEY_TEST_PASSWORD_HASHING: 'weak' }).passwordHashing).toBe('weak-for-tests')
  })

  test('asked for outside a test mode, or with a value it does not know, stops the start with one line', () => {
    const refusedAlone = 'PARLEY_TEST_PASSWORD_HASHING=weak makes password hashes easy to crack and is for test suites only: it is refused unless PARLEY_TEST_MODE=1 is set too'
    expect(() => loadConfig({ PARLEY_TEST_PASSWORD_HASHING: 'weak' })).toThrow(new ConfigError(refusedAlone))
    expect(() => loadConfig({ PARLEY_TEST_PASSWORD_HASHING: 'weak', PARLEY_TEST_MODE: 'true' })).toThrow(new ConfigError('PARLEY_TEST_MODE is for test suites only and takes 1, got "true"'))
    expect(() => loadConfig({ PARLEY_TEST_PASSWORD_HASHING: 'fast', PARLEY_TEST_MODE: '1' })).toThrow(new ConfigError('PARLEY_TEST_PASSWORD_HASHING takes weak (for test suites only), got "fast"'))
  })
})

describe('the binary', () => {
  const apps: TestApp[] = []
  afterAll(async () => {
    for (const app of apps) await app.close()
  })

  test('hashes a password at the production cost when the test-only setting is not given', async () => {
    const app = testApp(AS_PRODUCTION)
    apps.push(app)
    await app.serveFromBinary()
    await activePerson(app, 'ada@acme.io', 'admin')
    expect(storedHash(app, 'ada@acme.io')).toStartWith(PRODUCTION_COST)
    expect(app.logLines.join('\n')).not.toContain('password hashes are weak')
  }, 60_000)

  test('hashes at the weak cost with the test-only setting and its test mode, and says so in its log', async () => {
    const app = testApp()
    apps.push(app)
    await app.serveFromBinary()
    await activePerson(app, 'bea@acme.io', 'admin')
    expect(storedHash(app, 'bea@acme.io')).toStartWith(WEAK_COST)
    expect(app.logLines.join('\n')).toContain('password hashes are weak (PARLEY_TEST_PASSWORD_HASHING=weak with PARLEY_TEST_MODE=1): for test suites only')
  }, 60_000)

  test('refuses to start with the test-only setting alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-password-cost-'))
    try {
      const env: Record<string, string | undefined> = { ...process.env, PARLEY_DATA_DIR: dir, PORT: '0', PARLEY_TEST_PASSWORD_HASHING: 'weak' }
      delete env.PARLEY_TEST_MODE
      const result = Bun.spawnSync([compiledParley(), 'serve'], { env })
      expect({ code: result.exitCode, stderr: result.stderr.toString() }).toEqual({
        code: 1,
        stderr: 'parley: PARLEY_TEST_PASSWORD_HASHING=weak makes password hashes easy to crack and is for test suites only: it is refused unless PARLEY_TEST_MODE=1 is set too\n',
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
