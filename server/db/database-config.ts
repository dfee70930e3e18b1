import { accessSync, constants } from 'node:fs'
import { join } from 'node:path'

/** How Parley reaches PostgreSQL: Bun.sql's sslmode names. */
export const TLS_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const
export type TlsMode = (typeof TLS_MODES)[number]

export interface PostgresSettings {
  kind: 'postgres'
  /** As given, password included: never logged (describeDatabase masks it). */
  url: string
  poolSize: number
  /** 0: no limit. */
  statementTimeoutMs: number
  tls: TlsMode
  /** A PEM file of the certificate authority the server's certificate is checked against. */
  caFile: string | null
}

export type DatabaseConfig = { kind: 'sqlite'; file: string } | PostgresSettings

type Env = Record<string, string | undefined>

const EXAMPLE = 'postgres://user:password@host:5432/parley'
const POSTGRES_ONLY = ['PARLEY_DATABASE_POOL_SIZE', 'PARLEY_DATABASE_STATEMENT_TIMEOUT_MS', 'PARLEY_DATABASE_TLS', 'PARLEY_DATABASE_CA_FILE']
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * Which database Parley keeps its data in: PostgreSQL when PARLEY_DATABASE_URL is set, else
 * SQLite in the data folder. A bad value is one line (`fail` makes it the config's error);
 * the URL's password never appears in it.
 */
export function databaseSetting(env: Env, dataDir: string, fail: (line: string) => Error): DatabaseConfig {
  const raw = env.PARLEY_DATABASE_URL?.trim()
  if (!raw) {
    const stray = POSTGRES_ONLY.find((name) => env[name]?.trim())
    if (stray) throw fail(`${stray} is set but PARLEY_DATABASE_URL is not: the database is SQLite, which takes no such setting`)
    return { kind: 'sqlite', file: join(dataDir, 'parley.db') }
  }
  let url: URL | null = null
  try {
    url = new URL(raw)
  } catch {}
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    throw fail(`PARLEY_DATABASE_URL must be a postgres:// URL such as ${EXAMPLE}, got "${masked(raw)}"`)
  }
  if (!url.hostname) throw fail(`PARLEY_DATABASE_URL must name a host (${EXAMPLE}), got "${masked(raw)}"`)
  if (url.pathname.replace(/^\//, '') === '') throw fail(`PARLEY_DATABASE_URL must name a database (${EXAMPLE}), got "${masked(raw)}"`)

  const poolSize = wholeNumber(env, 'PARLEY_DATABASE_POOL_SIZE', 10, 1, 1000, fail)
  const statementTimeoutMs = wholeNumber(env, 'PARLEY_DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, 86_400_000, fail)
  const fromUrl = url.searchParams.get('sslmode')
  if (fromUrl !== null && !isTlsMode(fromUrl)) throw fail(`PARLEY_DATABASE_URL sslmode must be one of ${TLS_MODES.join(', ')}, got "${fromUrl}"`)
  const given = env.PARLEY_DATABASE_TLS?.trim()
  if (given && !isTlsMode(given)) throw fail(`PARLEY_DATABASE_TLS must be one of ${TLS_MODES.join(', ')}, got "${given}"`)
  if (given && fromUrl !== null && given !== fromUrl) {
    throw fail(`PARLEY_DATABASE_TLS is ${given} but PARLEY_DATABASE_URL says sslmode=${fromUrl}: set one of them`)
  }
  // Off this machine the server's certificate is checked unless told otherwise; on it, TLS adds nothing.
  const tls: TlsMode = (given as TlsMode | undefined) || (fromUrl as TlsMode | null) || (LOOPBACK.test(url.hostname) ? 'prefer' : 'verify-full')
  const caFile = env.PARLEY_DATABASE_CA_FILE?.trim() || null
  if (caFile) {
    if (tls !== 'verify-ca' && tls !== 'verify-full') throw fail(`PARLEY_DATABASE_CA_FILE needs PARLEY_DATABASE_TLS verify-ca or verify-full, not ${tls}`)
    try {
      accessSync(caFile, constants.R_OK)
    } catch {
      throw fail(`PARLEY_DATABASE_CA_FILE cannot be read: ${caFile}`)
    }
  }
  return { kind: 'postgres', url: raw, poolSize, statementTimeoutMs, tls, caFile }
}

/** The database for a log line or a screen: the file, or the URL with its password masked. */
export function describeDatabase(database: DatabaseConfig): string {
  return database.kind === 'sqlite' ? database.file : masked(database.url)
}

function masked(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?([^:@/]*):([^@]*)@/i, '$1$2:***@')
}

function isTlsMode(value: string): value is TlsMode {
  return (TLS_MODES as readonly string[]).includes(value)
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number, fail: (line: string) => Error): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) throw fail(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return value
}
