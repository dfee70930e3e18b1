import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { type DatabaseConfig, databaseSetting } from './db/database-config.ts'
import type { PasswordHashing } from './people/password.ts'
import { parseRange } from './support/ip-range.ts'
import { outboundAllowEntryProblem } from './support/outbound-url.ts'
import type { LogLevel } from './support/logger.ts'


export interface Config {
  port: number
  host: string
  dataDir: string
  publicUrl: string
  logLevel: LogLevel
  /** Requests per minute per API key; 0 turns rate limiting off. */
  rateLimitPerMinute: number
  /** Messages per minute one widget socket may send (bursts of a quarter of that); 0 = off. */
  socketRatePerMinute: number
  /** Requests per minute per client address on public routes (webhook handshakes, widget configuration); 0 = off. */
  publicRatePerMinute: number
  /** Requests with a missing or wrong API key one client address may make per minute before it is refused (429) for the rest of the minute; 0 = off. */
  authFailuresPerMinute: number
  /** Host names, IPs and CIDR ranges that outbound requests may reach although they are private. */
  outboundAllow: string[]
  /** The messaging provider's cloud API (Graph API) base, version included, without a trailing slash. */
  chatappApiUrl: string
  /** LLM agent runs at once per workspace; more wait their turn. */
  agentRunsPerWorkspace: number
  /** The largest file a conversation takes (a visitor's picture or PDF, an agent's file), in bytes. */
  attachmentMaxBytes: number
  /** SQLite in dataDir, or PostgreSQL when PARLEY_DATABASE_URL is set (server/db/database-config.ts). */
  database: DatabaseConfig
  /** argon2id at full cost; `weak-for-tests` only with PARLEY_TEST_MODE=1 (server/people/password.ts). */
  passwordHashing: PasswordHashing
  /** Reverse proxies (IPs, CIDR ranges) whose forwarding headers say who the client is. */
  trustedProxies: string[]
  /** Backups written on a schedule (PARLEY_BACKUP_*), or null when none are. */
  backups: BackupSettings | null
  /** The Bearer token that reads GET /metrics (besides trusted addresses), or null. */
  metricsToken: string | null
  /** Password hashes (sign-in, links) computed at once; the others wait their turn. */
  passwordChecks: number
}

export interface BackupSettings {
  dir: string
  everyMs: number
  /** How many of the newest scheduled backups stay; older ones are deleted. */
  keep: number
}

export const DEFAULT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024

export const DEFAULT_CHATAPP_API_URL = 'https://graph.facebook.com/v21.0'

export class ConfigError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent']

/** Reads the environment once at start; any bad value fails here with one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = integerSetting(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST?.trim() || '0.0.0.0'
  const dataDir = resolve(env.PARLEY_DATA_DIR?.trim() || './data')
  const publicUrl = publicUrlSetting(env.PARLEY_PUBLIC_URL, port)
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`)
  }
  const rateLimitPerMinute = integerSetting(env, 'PARLEY_RATE_LIMIT', 1200, 0, 10_000_000)
  const socketRatePerMinute = integerSetting(env, 'PARLEY_SOCKET_RATE_LIMIT', 120, 0, 10_000_000)
  const publicRatePerMinute = integerSetting(env, 'PARLEY_PUBLIC_RATE_LIMIT', 600, 0, 10_000_000)
  const authFailuresPerMinute = integerSetting(env, 'PARLEY_AUTH_FAILURE_LIMIT', 20, 0, 10_000_000)
  const outboundAllow = outboundAllowSetting(env.PARLEY_OUTBOUND_ALLOW)
  const chatappApiUrl = chatappApiUrlSetting(env.PARLEY_CHATAPP_API_URL)
  const agentRunsPerWorkspace = integerSetting(env, 'PARLEY_AGENT_RUNS_PER_WORKSPACE', 4, 1, 10_000)
  // Files live in the database: past 100 MiB one would hold a serving thread and a backup too long.
  const attachmentMaxBytes = integerSetting(env, 'PARLEY_ATTACHMENT_MAX_BYTES', DEFAULT_ATTACHMENT_MAX_BYTES, 1024, 100 * 1024 * 1024)
  const database = databaseSetting(env, dataDir, (line) => new ConfigError(line))
  const passwordHashing = passwordHashingSetting(env)
  const trustedProxies = trustedProxiesSetting(env.PARLEY_TRUSTED_PROXIES)
  const backups = backupSettings(env, dataDir)
  const metricsToken = metricsTokenSetting(env.PARLEY_METRICS_TOKEN)
  // argon2id takes a core and 64 MiB per hash: half the cores keeps the rest serving.
  const passwordChecks = integerSetting(env, 'PARLEY_PASSWORD_CHECKS', Math.max(1, Math.floor(availableParallelism() / 2)), 1, 64)
  return { port, host, dataDir, publicUrl, logLevel, rateLimitPerMinute, socketRatePerMinute, publicRatePerMinute, authFailuresPerMinute, outboundAllow, chatappApiUrl, agentRunsPerWorkspace, attachmentMaxBytes, trustedProxies, backups, metricsToken, passwordChecks, database, passwordHashing }
}

/**
 * Weak password hashes are for test suites only: asked for without PARLEY_TEST_MODE=1 (which
 * says the data is throwaway), the start is refused rather than weaken a real Parley's users.
 */
function passwordHashingSetting(env: Record<string, string | undefined>): PasswordHashing {
  const hashing = env.PARLEY_TEST_PASSWORD_HASHING?.trim()
  const testMode = env.PARLEY_TEST_MODE?.trim()
  if (testMode && testMode !== '1') throw new ConfigError(`PARLEY_TEST_MODE is for test suites only and takes 1, got "${testMode}"`)
  if (!hashing) return 'argon2id'
  if (hashing !== 'weak') throw new ConfigError(`PARLEY_TEST_PASSWORD_HASHING takes weak (for test suites only), got "${hashing}"`)
  if (testMode !== '1') {
    throw new ConfigError('PARLEY_TEST_PASSWORD_HASHING=weak makes password hashes easy to crack and is for test suites only: it is refused unless PARLEY_TEST_MODE=1 is set too')
  }
  return 'weak-for-tests'
}

/** A secret someone could guess would open the metrics to the internet: long, and without spaces. */
function metricsTokenSetting(raw: string | undefined): string | null {
  const value = raw?.trim()
  if (!value) return null
  if (value.length < 32 || value.length > 256 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError('PARLEY_METRICS_TOKEN must be 32 to 256 visible characters without spaces (such as the output of openssl rand -hex 32)')
  }
  return value
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

function backupSettings(env: Record<string, string | undefined>, dataDir: string): BackupSettings | null {
  const every = env.PARLEY_BACKUP_EVERY?.trim()
  const dir = env.PARLEY_BACKUP_DIR?.trim()
  if (!every) {
    if (dir) throw new ConfigError('PARLEY_BACKUP_DIR is set but PARLEY_BACKUP_EVERY is not: set how often to back up, such as 6h or 1d')
    return null
  }
  const match = /^(\d{1,6})([smhd])$/.exec(every)
  const everyMs = match ? Number(match[1]) * (DURATION_UNITS_MS[match[2] as string] as number) : 0
  if (everyMs < 30_000 || everyMs > 365 * 86_400_000) {
    throw new ConfigError(`PARLEY_BACKUP_EVERY must be a duration from 30s to 365d such as 30s, 15m, 6h or 1d, got "${every}"`)
  }
  return { dir: resolve(dir || `${dataDir}/backups`), everyMs, keep: integerSetting(env, 'PARLEY_BACKUP_KEEP', 7, 1, 10_000) }
}

function trustedProxiesSetting(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean)
  for (const entry of entries) {
    if (!parseRange(entry)) throw new ConfigError(`PARLEY_TRUSTED_PROXIES entry "${entry}" is not an IP address or a CIDR range (such as 127.0.0.1 or 10.0.0.0/8)`)
  }
  return entries
}

/** An absolute http(s) base such as https://graph.facebook.com/v21.0: message calls go to `${base}/{phone_number_id}/messages`. */
function chatappApiUrlSetting(raw: string | undefined): string {
  const value = raw?.trim()
  if (!value) return DEFAULT_CHATAPP_API_URL
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`PARLEY_CHATAPP_API_URL must be an absolute http(s) URL such as ${DEFAULT_CHATAPP_API_URL}, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PARLEY_CHATAPP_API_URL must use http or https, got "${value}"`)
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`PARLEY_CHATAPP_API_URL must not carry a user name, password, query or fragment, got "${value}"`)
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

function outboundAllowSetting(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean)
  for (const entry of entries) {
    const problem = outboundAllowEntryProblem(entry)
    if (problem) throw new ConfigError(`PARLEY_OUTBOUND_ALLOW entry "${entry}" ${problem}`)
  }
  return entries
}

function integerSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function publicUrlSetting(raw: string | undefined, port: number): string {
  const value = raw?.trim()
  if (!value) return `http://localhost:${port}`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`PARLEY_PUBLIC_URL must be an absolute http(s) URL, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PARLEY_PUBLIC_URL must use http or https, got "${value}"`)
  }
  return url.origin
}
