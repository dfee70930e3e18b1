import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ConfigError, loadConfig } from '../../server/config.ts'
import { connectPostgres } from '../../server/db/postgres/connect.ts'
import { TEST_CERTIFICATE } from '../support/postgres-cluster.ts'
import { type PostgresTestDatabase, postgresTestDatabase } from '../support/postgres-database.ts'

const URL = 'postgres://parley:s3cret@db.example.com:5432/parley'
const fails = (env: Record<string, string>, line: string) => expect(() => loadConfig(env)).toThrow(new ConfigError(line))

describe('PARLEY_DATABASE_URL', () => {
  test('absent or empty: SQLite, the file parley.db in PARLEY_DATA_DIR', () => {
    expect(loadConfig({ PARLEY_DATA_DIR: '/srv/parley' }).database).toEqual({ kind: 'sqlite', file: '/srv/parley/parley.db' })
    expect(loadConfig({ PARLEY_DATABASE_URL: ' ' }).database).toEqual({ kind: 'sqlite', file: resolve('./data/parley.db') })
  })

  test('a postgres:// or postgresql:// URL: PostgreSQL, with a pool of 10, a 30 s statement timeout and verified TLS', () => {
    expect(loadConfig({ PARLEY_DATABASE_URL: URL }).database).toEqual({ kind: 'postgres', url: URL, poolSize: 10, statementTimeoutMs: 30_000, tls: 'verify-full', caFile: null })
    expect(loadConfig({ PARLEY_DATABASE_URL: 'postgresql://parley@db.example.com/parley' }).database).toMatchObject({ kind: 'postgres', tls: 'verify-full' })
  })

  test('a database on this machine is reached without TLS unless the server offers it (prefer)', () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', '127.0.0.2']) {
      expect(loadConfig({ PARLEY_DATABASE_URL: `postgres://parley@${host}:5432/parley` }).database).toMatchObject({ tls: 'prefer' })
    }
  })

  test('pool size, statement timeout, TLS mode and CA file are set by their variables', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-ca-'))
    const ca = join(dir, 'ca.pem')
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n')
    try {
      const env = { PARLEY_DATABASE_URL: URL, PARLEY_DATABASE_POOL_SIZE: '40', PARLEY_DATABASE_STATEMENT_TIMEOUT_MS: '0', PARLEY_DATABASE_TLS: 'verify-ca', PARLEY_DATABASE_CA_FILE: ca }
      expect(loadConfig(env).database).toEqual({ kind: 'postgres', url: URL, poolSize: 40, statementTimeoutMs: 0, tls: 'verify-ca', caFile: ca })
      expect(loadConfig({ PARLEY_DATABASE_URL: `${URL}?sslmode=require` }).database).toMatchObject({ tls: 'require' })
      expect(loadConfig({ PARLEY_DATABASE_URL: `${URL}?sslmode=disable`, PARLEY_DATABASE_TLS: 'disable' }).database).toMatchObject({ tls: 'disable' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('bad values fail at start with one clear line that never shows the password', () => {
    fails({ PARLEY_DATABASE_URL: 'mysql://parley:s3cret@db/parley' }, 'PARLEY_DATABASE_URL must be a postgres:// URL such as postgres://user:password@host:5432/parley, got "mysql://parley:***@db/parley"')
    fails({ PARLEY_DATABASE_URL: 'parley:s3cret@db/parley' }, 'PARLEY_DATABASE_URL must be a postgres:// URL such as postgres://user:password@host:5432/parley, got "parley:***@db/parley"')
    fails({ PARLEY_DATABASE_URL: 'postgres://parley:s3cret@db.example.com:5432' }, 'PARLEY_DATABASE_URL must name a database (postgres://user:password@host:5432/parley), got "postgres://parley:***@db.example.com:5432"')
    fails({ PARLEY_DATABASE_URL: 'postgres:///parley' }, 'PARLEY_DATABASE_URL must name a host (postgres://user:password@host:5432/parley), got "postgres:///parley"')
    fails({ PARLEY_DATABASE_URL: URL, PARLEY_DATABASE_POOL_SIZE: '0' }, 'PARLEY_DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "0"')
    fails({ PARLEY_DATABASE_URL: URL, PARLEY_DATABASE_STATEMENT_TIMEOUT_MS: '5s' }, 'PARLEY_DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 0 to 86400000, got "5s"')
    fails({ PARLEY_DATABASE_URL: URL, PARLEY_DATABASE_TLS: 'yes' }, 'PARLEY_DATABASE_TLS must be one of disable, prefer, require, verify-ca, verify-full, got "yes"')
    fails({ PARLEY_DATABASE_URL: `${URL}?sslmode=bogus` }, 'PARLEY_DATABASE_URL sslmode must be one of disable, prefer, require, verify-ca, verify-full, got "bogus"')
    fails({ PARLEY_DATABASE_URL: `${URL}?sslmode=disable`, PARLEY_DATABASE_TLS: 'verify-full' }, 'PARLEY_DATABASE_TLS is verify-full but PARLEY_DATABASE_URL says sslmode=disable: set one of them')
    fails({ PARLEY_DATABASE_URL: URL, PARLEY_DATABASE_CA_FILE: '/nowhere/ca.pem' }, 'PARLEY_DATABASE_CA_FILE cannot be read: /nowhere/ca.pem')
    fails({ PARLEY_DATABASE_URL: URL, PARLEY_DATABASE_TLS: 'require', PARLEY_DATABASE_CA_FILE: '/etc/hostname' }, 'PARLEY_DATABASE_CA_FILE needs PARLEY_DATABASE_TLS verify-ca or verify-full, not require')
  })

  test('PostgreSQL settings without PARLEY_DATABASE_URL fail rather than being ignored', () => {
    fails({ PARLEY_DATABASE_POOL_SIZE: '20' }, 'PARLEY_DATABASE_POOL_SIZE is set but PARLEY_DATABASE_URL is not: the database is SQLite, which takes no such setting')
  })
})

describe('a PostgreSQL pool made from the settings', () => {
  let database: PostgresTestDatabase
  beforeAll(async () => {
    database = await postgresTestDatabase()
  })
  afterAll(() => database?.drop())

  test('has the statement timeout and names itself parley', async () => {
    const sql = connectPostgres({ kind: 'postgres', url: database.url, poolSize: 2, statementTimeoutMs: 1234, tls: 'prefer', caFile: null })
    try {
      expect([...(await sql`SELECT current_setting('statement_timeout') AS timeout, current_setting('application_name') AS name`)]).toEqual([{ timeout: '1234ms', name: 'parley' }])
      await expect(sql`SELECT pg_sleep(3)`).rejects.toThrow('canceling statement due to statement timeout')
    } finally {
      await sql.close()
    }
  })

  /** Whether the pool made from these settings reaches the cluster, and over TLS. */
  async function reach(tls: 'disable' | 'require' | 'verify-ca' | 'verify-full', options: { host?: string; caFile?: string } = {}) {
    const url = options.host ? database.url.replace('127.0.0.1', options.host) : database.url
    const sql = connectPostgres({ kind: 'postgres', url, poolSize: 1, statementTimeoutMs: 0, tls, caFile: options.caFile ?? null })
    try {
      const [row] = await sql`SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()`
      return row.ssl ? 'over TLS' : 'in clear'
    } catch (error) {
      return `refused: ${(error as Error).message}`
    } finally {
      await sql.close()
    }
  }

  // The cluster's certificate is self-signed for the name localhost only (test/support/fixtures/README.md).
  test('TLS: disable talks in clear, require encrypts without checking, verify-* check the certificate', async () => {
    expect(await reach('disable')).toBe('in clear')
    expect(await reach('require')).toBe('over TLS')
    expect(await reach('verify-full')).toStartWith('refused:')
    expect(await reach('verify-full', { host: 'localhost', caFile: TEST_CERTIFICATE })).toBe('over TLS')
    // The certificate names localhost, not 127.0.0.1: verify-full refuses, verify-ca checks only the signature.
    expect(await reach('verify-full', { caFile: TEST_CERTIFICATE })).toStartWith('refused:')
    expect(await reach('verify-ca', { caFile: TEST_CERTIFICATE })).toBe('over TLS')
  })
})
