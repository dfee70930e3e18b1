#!/usr/bin/env bun
import './production-mode.ts'
import type { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { backup } from './cli/backup.ts'
import { postgresBackupAdvice } from './cli/postgres-backup-advice.ts'
import { keys } from './cli/keys.ts'
import { restore } from './cli/restore.ts'
import { serve } from './cli/serve.ts'
import { terminalText } from './cli/terminal-text.ts'
import { users } from './cli/users.ts'
import { ConfigError, loadConfig } from './config.ts'
import { describeDatabase } from './db/database-config.ts'
import { migrate } from './db/migrate.ts'
import { migrations } from './db/migrations/index.ts'
import { openDatabase } from './db/open-database.ts'
import { usePasswordHashing } from './people/password.ts'
import { peopleService } from './people/service.ts'
import { VERSION } from './version.ts'
import { workspaceService } from './workspaces/service.ts'
import { sqliteStores } from './stores.ts'
import { sqliteUnits } from './db/sqlite-units.ts'
import { writeBatcher } from './db/write-batcher.ts'
import { systemClock } from './support/clock.ts'

const HELP = `parley ${VERSION}: a self-hosted chatbot platform in one binary

Usage:
  parley serve                          serve the API, the widget and the sockets
  parley keys create --name NAME [--workspace ID | --new-workspace]
                                        print a new API key (alone, on stdout)
  parley keys list                      list API keys (prefixes only)
  parley keys revoke PREFIX             revoke the key with that prefix
  parley users create --email E --name N --role admin|agent [--workspace ID] [--password-stdin]
                                        add a person; prints a one-time link to set the password
  parley users reset-password --email E [--workspace ID]
                                        print a one-time link to set a new password
  parley users list                     list the people of every workspace
  parley backup FILE                    write a consistent, integrity-checked copy of the database to FILE
  parley restore FILE                   put a backup in place of the database (stop the server first);
                                        the replaced database is kept beside it
  parley --version | --help

Environment:
  PORT (3000)  HOST (0.0.0.0)  PARLEY_DATA_DIR (./data)  PARLEY_PUBLIC_URL (http://localhost:$PORT)
  LOG_LEVEL (info: debug, info, warn, error, silent)  PARLEY_RATE_LIMIT (1200 requests/minute per workspace; 0 = off)
  PARLEY_SOCKET_RATE_LIMIT (120 messages/minute per widget socket; 0 = off)
  PARLEY_PUBLIC_RATE_LIMIT (600 requests/minute per address on public routes; 0 = off)
  PARLEY_AUTH_FAILURE_LIMIT (20 wrong API keys/minute per address before it is refused; 0 = off)
  PARLEY_PASSWORD_CHECKS (password hashes at once; default half the cores)
  PARLEY_OUTBOUND_ALLOW (private hosts, IPs or CIDRs webhooks may reach, comma-separated)
  PARLEY_CHATAPP_API_URL (https://graph.facebook.com/v21.0: the messaging provider's cloud API)
  PARLEY_TRUSTED_PROXIES (reverse proxies' IPs or CIDRs whose X-Forwarded-For is believed)
  PARLEY_BACKUP_EVERY (off: 30s, 15m, 6h, 1d...)  PARLEY_BACKUP_DIR ($PARLEY_DATA_DIR/backups)  PARLEY_BACKUP_KEEP (7)
  PARLEY_METRICS_TOKEN (a Bearer token for GET /metrics)
  PARLEY_DATABASE_URL (unset: SQLite in PARLEY_DATA_DIR; postgres://user:password@host:5432/db: PostgreSQL,
    not served by this build yet)  PARLEY_DATABASE_POOL_SIZE (10)  PARLEY_DATABASE_STATEMENT_TIMEOUT_MS (30000; 0 = none)
  PARLEY_DATABASE_TLS (disable, prefer, require, verify-ca, verify-full; prefer on this machine, else verify-full)
  PARLEY_DATABASE_CA_FILE (PEM certificate authority for verify-ca and verify-full)`

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      name: { type: 'string' },
      workspace: { type: 'string' },
      'new-workspace': { type: 'boolean' },
      email: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean' },
    },
  })
  const [command, action, argument] = positionals
  if (values.version) return print(VERSION)
  if (values.help || !command) return print(HELP)

  const config = loadConfig()
  usePasswordHashing(config.passwordHashing)
  if (config.database.kind === 'postgres' && (command === 'backup' || command === 'restore')) throw new Error(postgresBackupAdvice(command, config.database, action))
  if (config.database.kind === 'postgres') throw new Error(`PARLEY_DATABASE_URL is set (${describeDatabase(config.database)}), but this build keeps its data in SQLite only: the PostgreSQL backend is not finished. Unset it to use PARLEY_DATA_DIR.`)
  const databaseFile = join(config.dataDir, 'parley.db')
  switch (command) {
    case 'serve':
      await serve(config)
      return -1
    case 'keys': {
      if (action !== 'create' && action !== 'list' && action !== 'revoke') {
        throw new UsageError('keys takes create, list or revoke')
      }
      const db = openExistingDatabase(databaseFile)
      try {
        migrate(db)
        await keys(
          workspaceService({ ...commandSeam(db), now: systemClock }),
          { action, name: values.name, workspaceId: values.workspace, newWorkspace: values['new-workspace'], prefix: argument },
          (line) => console.log(line),
        )
      } finally {
        db.close()
      }
      return 0
    }
    case 'users': {
      if (action !== 'create' && action !== 'reset-password' && action !== 'list') {
        throw new UsageError('users takes create, reset-password or list')
      }
      const db = openExistingDatabase(databaseFile)
      try {
        migrate(db)
        const seam = commandSeam(db)
        const { stores } = seam
        const workspaceId = values.workspace ?? (await stores.workspaces.firstWorkspace())?.id
        if (!workspaceId) throw new Error('the database has no workspace yet; run parley serve once')
        if (!(await stores.workspaces.getWorkspace(workspaceId))) throw new Error(`no workspace with id ${workspaceId}`)
        const password = values['password-stdin'] ? (await Bun.stdin.text()).replace(/\r?\n$/, '') : undefined
        const people = peopleService({ ...seam, now: systemClock, publicUrl: config.publicUrl })
        await users(people, { action, email: values.email, name: values.name, role: values.role, workspaceId, password }, (line) => console.log(line))
      } finally {
        db.close()
      }
      return 0
    }
    case 'backup': {
      if (!action) throw new UsageError('backup needs a target file: parley backup FILE')
      console.log(`backup written to ${backup(databaseFile, action)}`)
      return 0
    }
    case 'restore': {
      if (!action) throw new UsageError('restore needs the backup file: parley restore FILE')
      const newestMigration = migrations.at(-1)?.id ?? 0
      for (const line of restore({ dataDir: config.dataDir, backupFile: action, newestMigration, now: new Date() })) console.log(line)
      return 0
    }
    default:
      throw new UsageError(`unknown command "${command}"; see parley --help`)
  }
}

class UsageError extends Error {}

/** The stores and units of a one-shot command on the SQLite file: a unit resolves once committed, before the file is closed. */
function commandSeam(db: Database) {
  const stores = sqliteStores(db)
  const batch = writeBatcher(db, () => {})
  return { stores, units: sqliteUnits(batch, stores) }
}

/**
 * The CLI works on the database a server made: a command run in the wrong folder must say so,
 * not leave an empty database behind that the next `serve` there would take for a new install.
 */
function openExistingDatabase(file: string) {
  if (!existsSync(file)) {
    throw new Error(`no database at ${file}; run this where parley serve keeps its data, or set PARLEY_DATA_DIR`)
  }
  return openDatabase(file)
}

function print(text: string): number {
  console.log(text)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code)
  },
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof UsageError || error instanceof Error
    console.error(`parley: ${terminalText(known ? (error as Error).message : String(error))}`)
    process.exit(error instanceof UsageError ? 64 : 1)
  },
)
