import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseConfig } from '../../server/db/database-config.ts'
import type { OperationsStore } from '../../server/operations/store.ts'
import { operationsService } from '../../server/operations/service.ts'

const INSTALLATION = 'ws_installation'

function serviceOn(database: DatabaseConfig, dataDir: string) {
  const store: OperationsStore = {
    installationWorkspaceId: async () => INSTALLATION,
    databaseBytes: async () => 81920,
    ping: async () => {},
  }
  return operationsService({
    store,
    dataDir,
    version: '0.0.0-test',
    now: () => '2026-11-28T12:00:00.000Z',
    writeBackup: async () => {
      throw new Error('not in this test')
    },
    backups: { status: () => ({ scheduled: false, dir: null, every_seconds: null, keep: null, files: [], running: false, next_at: null, last_failure: null }) },
    database,
  })
}

describe('the operations status names the database in use', () => {
  test('SQLite: its file, and the write-ahead log beside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-ops-'))
    try {
      writeFileSync(join(dir, 'parley.db-wal'), new Uint8Array(1234))
      const status = await serviceOn({ kind: 'sqlite', file: join(dir, 'parley.db') }, dir).status(INSTALLATION)
      expect(status.database).toEqual({ engine: 'sqlite', location: join(dir, 'parley.db') })
      expect(status.wal_bytes).toBe(1234)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('PostgreSQL: the URL with its password masked, and no SQLite log counted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-ops-'))
    try {
      writeFileSync(join(dir, 'parley.db-wal'), new Uint8Array(1234))
      const database: DatabaseConfig = { kind: 'postgres', url: 'postgres://parley:s3cret@db.internal:5432/parley', poolSize: 10, statementTimeoutMs: 30000, tls: 'verify-full', caFile: null }
      const status = await serviceOn(database, dir).status(INSTALLATION)
      expect(status.database).toEqual({ engine: 'postgresql', location: 'postgres://parley:***@db.internal:5432/parley' })
      expect(JSON.stringify(status)).not.toContain('s3cret')
      expect(status.database_bytes).toBe(81920)
      expect(status.wal_bytes).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
