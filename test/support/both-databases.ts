import { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectPostgres } from '../../server/db/postgres/connect.ts'
import { postgresUnits } from '../../server/db/postgres/postgres-units.ts'
import { sqliteUnits } from '../../server/db/sqlite-units.ts'
import type { Units } from '../../server/db/units.ts'
import { type WriteBatcher, writeBatcher } from '../../server/db/write-batcher.ts'
import { postgresStores, type Stores, sqliteStores } from '../../server/stores.ts'
import { migratedDatabase } from './migrated-database.ts'
import { type PostgresTestDatabase, postgresTestDatabase } from './postgres-database.ts'

/** One database, migrated, behind the store seam: what a shared store test runs its cases on. */
export interface TestDatabase {
  kind: 'sqlite' | 'postgres'
  stores: Stores
  units: Units<Stores>
  /** Plain SQL both databases take, for the rows a case needs around it (seeding stays out of the stores). */
  exec(sql: string): Promise<void>
  query<Row>(sql: string): Promise<Row[]>
  /**
   * Another server on the same database, as a second node would be: its own connection
   * (PostgreSQL: pool) and its own unit port, sharing nothing in memory with the first.
   * SQLite has one writer process per file: null there.
   */
  otherNode(): TestNode | null
}

export interface TestNode {
  stores: Stores
  units: Units<Stores>
}

async function sqliteDatabase(): Promise<TestDatabase & { close(): Promise<void>; batch: WriteBatcher; db: Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-both-'))
  const db = migratedDatabase(join(dir, 'parley.db'))
  const batch = writeBatcher(db, () => {})
  const stores = sqliteStores(db)
  return {
    kind: 'sqlite',
    stores,
    units: sqliteUnits(batch, stores),
    batch,
    db,
    exec: async (sql) => void db.exec(sql),
    query: async <Row>(sql: string) => db.query<Row, []>(sql).all(),
    otherNode: () => null,
    async close() {
      batch.flush()
      db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function postgresDatabase(): Promise<TestDatabase & { close(): Promise<void> }> {
  const database: PostgresTestDatabase = await postgresTestDatabase()
  const pools: SQL[] = []
  const node = (): TestNode => {
    const sql = connectPostgres({ kind: 'postgres', url: database.url, poolSize: 8, statementTimeoutMs: 10_000, tls: 'disable', caFile: null })
    pools.push(sql)
    return { stores: postgresStores(sql), units: postgresUnits(sql, postgresStores) }
  }
  const first = node()
  const sql = pools[0] as SQL
  return {
    kind: 'postgres',
    ...first,
    exec: async (text) => void (await sql.unsafe(text)),
    query: async <Row>(text: string) => [...(await sql.unsafe(text))] as Row[],
    otherNode: node,
    async close() {
      for (const pool of pools) await pool.close()
      await database.drop()
    },
  }
}

/**
 * Runs the same cases on SQLite and on PostgreSQL: `describe('<title> on sqlite')` and
 * `describe('<title> on postgres')`, each with a database of its own for the file's cases
 * (they keep to their own rows). `database()` is the one the running case gets.
 */
export function onBothDatabases(title: string, cases: (database: () => TestDatabase) => void): void {
  for (const [kind, open] of [['sqlite', sqliteDatabase], ['postgres', postgresDatabase]] as const) {
    describe(`${title} on ${kind}`, () => {
      let current: Awaited<ReturnType<typeof open>> | null = null
      beforeAll(async () => {
        current = await open()
      })
      afterAll(async () => {
        await current?.close()
      })
      cases(() => {
        if (!current) throw new Error(`the ${kind} database is not open`)
        return current
      })
    })
  }
}

/** The SQLite side alone, with its write batcher: for what only group commit does. */
export { sqliteDatabase as sqliteTestDatabase }
