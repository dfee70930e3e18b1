import { SQL } from 'bun'
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { migratePostgres } from '../../server/db/postgres/migrate.ts'
import { postgresMigrations } from '../../server/db/postgres/migrations/index.ts'
import { freePort } from './free-port.ts'

/** The database every test database is copied from (`CREATE DATABASE x TEMPLATE parley_template`). */
export const TEMPLATE_DATABASE = 'parley_template'

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT: add a database name. */
  server: string
  /** How long each step took, in ms: initdb and the template's migrations happen only when no cached cluster fits. */
  startupMs: { initdb: number; copy: number; start: number; template: number }
  /** Stops the server and removes its files; synchronous, so that it can run at process exit. */
  stop(): void
}

const CLUSTER_PREFIX = 'parley-pg-'

/**
 * One throwaway PostgreSQL cluster for a test run, from Debian's binaries (scripts/prepare-tests.sh
 * installs them): trust authentication, the server on 127.0.0.1 and a free port with fsync off
 * (a crash loses nothing a test needs), TLS with a test certificate, and the template
 * database migrated. initdb and the server refuse to run as root: as root they run as the
 * `postgres` user, who owns the folder.
 *
 * initdb and the template's migrations cost seconds (7 s and 2 s on a loaded 2-core machine),
 * so the first run keeps the stopped cluster in node_modules/.cache/parley-postgres/, keyed
 * by the PostgreSQL version and the migrations' text; later runs copy it (about 0.5 s) and
 * only start the server. A changed migration makes a new key, and the old copy is removed.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries()
  removeAbandonedClusters(bin)
  const dir = mkdtempSync(join(tmpdir(), CLUSTER_PREFIX))
  writeFileSync(join(dir, 'owner.pid'), String(process.pid))
  const owner = process.getuid?.() === 0 ? postgresUser() : null
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const asOwner = (command: string[]) => (owner ? ['runuser', '-u', 'postgres', '--', ...command] : command)
  // The server reads its key only when it belongs to the server's user and no one else may read it.
  for (const [from, to] of [[TEST_CERTIFICATE, 'server.crt'], [TEST_CERTIFICATE_KEY, 'server.key']] as const) {
    copyFileSync(from, join(dir, to))
    chmodSync(join(dir, to), 0o600)
    if (owner) chownSync(join(dir, to), owner.uid, owner.gid)
  }
  const data = join(dir, 'data')
  const port = freePort()
  const server = `postgres://postgres@127.0.0.1:${port}`
  const tls = `-c ssl=on -c ssl_cert_file=${join(dir, 'server.crt')} -c ssl_key_file=${join(dir, 'server.key')}`
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${tls}`
  let started = false
  const startServer = () => {
    run(asOwner([join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']))
    started = true
  }
  const stopServer = (mode: 'fast' | 'immediate') => {
    if (started) runQuietly(asOwner([join(bin, 'pg_ctl'), '-D', data, '-m', mode, '-w', 'stop']))
    started = false
  }
  const stop = () => {
    stopServer('immediate')
    rmSync(dir, { recursive: true, force: true })
  }
  const startupMs = { initdb: 0, copy: 0, start: 0, template: 0 }
  const timed = async (step: keyof typeof startupMs, work: () => unknown) => {
    const mark = performance.now()
    await work()
    startupMs[step] += performance.now() - mark
  }
  try {
    const cached = pristineCluster(bin)
    if (existsSync(cached)) {
      await timed('copy', () => run(['cp', '-a', cached, data]))
      await timed('start', startServer)
    } else {
      await timed('initdb', () => run(asOwner([join(bin, 'initdb'), '-D', data, ...INITDB_OPTIONS])))
      await timed('start', startServer)
      await timed('template', () => makeTemplate(server))
      // Kept for the next run only from a cleanly stopped server: a copy of a running one would need recovery.
      await timed('copy', () => {
        stopServer('fast')
        keepPristine(data, cached)
        startServer()
      })
    }
    return { server, startupMs, stop }
  } catch (error) {
    const log = join(dir, 'server.log')
    const tail = existsSync(log) ? `\n${readFileSync(log, 'utf8').split('\n').slice(-15).join('\n')}` : ''
    stop()
    throw new Error(`the PostgreSQL test cluster did not start: ${error instanceof Error ? error.message : error}${tail}`)
  }
}

async function makeTemplate(server: string): Promise<void> {
  const admin = new SQL({ url: `${server}/postgres`, max: 1 })
  try {
    await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DATABASE}`)
  } finally {
    await admin.close()
  }
  const template = new SQL({ url: `${server}/${TEMPLATE_DATABASE}`, max: 1 })
  try {
    await migratePostgres(template)
  } finally {
    await template.close()
  }
}

/** Small WAL segments: a copy of the cluster is 16 MB lighter. */
const INITDB_OPTIONS = ['-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions', '--wal-segsize=1']

const CACHE = join(new URL('../..', import.meta.url).pathname, 'node_modules', '.cache', 'parley-postgres')

/** Where the stopped, migrated cluster for these binaries and these migrations is kept. */
function pristineCluster(bin: string): string {
  const version = run([join(bin, 'postgres'), '--version']).trim()
  const key = new Bun.CryptoHasher('sha256').update(version).update(INITDB_OPTIONS.join(' ')).update(JSON.stringify(postgresMigrations)).digest('hex').slice(0, 16)
  return join(CACHE, key)
}

/** Copies a stopped cluster to the cache, whole or not at all; copies made for older keys go. */
function keepPristine(data: string, cached: string): void {
  mkdirSync(CACHE, { recursive: true })
  const key = basename(cached)
  for (const old of readdirSync(CACHE)) if (!old.startsWith(key)) rmSync(join(CACHE, old), { recursive: true, force: true })
  const partial = `${cached}.${process.pid}.partial`
  run(['cp', '-a', data, partial])
  try {
    renameSync(partial, cached)
  } catch {
    // Another test process kept the same cluster first.
    rmSync(partial, { recursive: true, force: true })
  }
}

/** Debian's PostgreSQL binaries, the newest version installed; PARLEY_TEST_POSTGRES_BIN names another folder. */
export function postgresBinaries(): string {
  const chosen = process.env.PARLEY_TEST_POSTGRES_BIN
  if (chosen) return chosen
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) throw new Error(`no PostgreSQL binaries in ${root}: run scripts/prepare-tests.sh (it installs Debian's postgresql)`)
  return join(root, newest, 'bin')
}

/**
 * The certificate the cluster serves TLS with: for the name localhost only (test/support/fixtures/README.md),
 * so that the tests of PARLEY_DATABASE_TLS can see verification pass and fail.
 */
export const TEST_CERTIFICATE = new URL('fixtures/postgres-test.cert.pem', import.meta.url).pathname
const TEST_CERTIFICATE_KEY = new URL('fixtures/postgres-test.key.pem', import.meta.url).pathname

function postgresUser(): { uid: number; gid: number } {
  return { uid: Number(run(['id', '-u', 'postgres']).trim()), gid: Number(run(['id', '-g', 'postgres']).trim()) }
}


/** Clusters left behind by a test process that was killed: stopped and removed when their owner is gone. */
function removeAbandonedClusters(bin: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue
    const dir = join(tmpdir(), name)
    let owner = 0
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'))
    } catch {}
    if (owner > 0 && isAlive(owner)) continue
    if (existsSync(join(dir, 'data', 'postmaster.pid'))) {
      const pg_ctl = [join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']
      runQuietly(process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...pg_ctl] : pg_ctl)
    }
    rmSync(dir, { recursive: true, force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function run(command: string[]): string {
  const result = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) {
    throw new Error(`${command.join(' ')} failed (${result.exitCode}): ${result.stderr.toString().trim() || result.stdout.toString().trim()}`)
  }
  return result.stdout.toString()
}

function runQuietly(command: string[]): void {
  Bun.spawnSync(command, { stdout: 'ignore', stderr: 'ignore' })
}
