import { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrations } from '../../../server/db/migrations/index.ts'
import { migratePostgres } from '../../../server/db/postgres/migrate.ts'
import { postgresMigrations } from '../../../server/db/postgres/migrations/index.ts'
import { migratedDatabase } from '../../support/migrated-database.ts'
import { type PostgresTestDatabase, postgresTestDatabase } from '../../support/postgres-database.ts'

/**
 * The two migration tracks leave the same schema: every table and column on one side is on
 * the other, with the mapped type and the same NOT NULL; the same named indexes and triggers.
 * A migration written for one database only fails here. What differs by design is listed below,
 * each with its reason.
 */

/** SQLite declared type -> the PostgreSQL types that stand for it. */
const TYPES: Record<string, string[]> = { TEXT: ['text'], INTEGER: ['integer', 'bigint'], BLOB: ['bytea'] }
/** SQLite's FTS5 tables: plain tables on PostgreSQL (pg_trgm, tsvector), columns typed there, untyped in FTS5. */
const SEARCH_TABLES = ['desk_contact_search', 'desk_message_search', 'knowledge_passage_search']
/** SQLite triggers whose work a foreign key's ON DELETE CASCADE does on PostgreSQL (identities are never reused). */
const DONE_BY_FOREIGN_KEYS = ['desk_contact_search_delete', 'desk_message_search_delete', 'knowledge_passage_search_delete']
/** What SQLite's FTS5 keeps in the rowid's bits (migration 0024: the conversation's seq) and PostgreSQL in a column. */
const IN_ROWID_ON_SQLITE = ['desk_message_search.conversation_seq']

interface Column {
  type: string
  notNull: boolean
  identity?: boolean
}
type Schema = { tables: Map<string, Map<string, Column>>; indexes: string[]; triggers: string[] }

function sqliteSchema(db: Database): Schema {
  const entries = db.query<{ type: string; name: string; tbl_name: string; sql: string | null }, []>('SELECT type, name, tbl_name, sql FROM sqlite_schema').all()
  const virtual = entries.filter((e) => e.type === 'table' && e.sql?.startsWith('CREATE VIRTUAL TABLE')).map((e) => e.name)
  // FTS5 keeps each index in shadow tables named after it.
  const shadow = (name: string) => virtual.some((v) => ['data', 'idx', 'content', 'docsize', 'config'].some((part) => name === `${v}_${part}`))
  const tables = new Map<string, Map<string, Column>>()
  for (const { name } of entries.filter((e) => e.type === 'table' && !e.name.startsWith('sqlite_') && !shadow(e.name))) {
    const columns = db.query<{ name: string; type: string; notnull: number; pk: number }, [string]>('SELECT name, type, "notnull", pk FROM pragma_table_info(?)').all(name)
    tables.set(name, new Map(columns.map((c) => [c.name, { type: c.type, notNull: c.notnull === 1 || c.pk > 0 }])))
  }
  return {
    tables,
    indexes: entries.filter((e) => e.type === 'index' && e.sql !== null && !shadow(e.tbl_name)).map((e) => e.name).sort(),
    triggers: entries.filter((e) => e.type === 'trigger').map((e) => e.name).sort(),
  }
}

async function postgresSchema(sql: SQL): Promise<Schema> {
  const columns = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; is_identity: string }[]>`
    SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.is_identity
    FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`
  const tables = new Map<string, Map<string, Column>>()
  for (const c of columns) {
    if (!tables.has(c.table_name)) tables.set(c.table_name, new Map())
    tables.get(c.table_name)?.set(c.column_name, { type: c.data_type, notNull: c.is_nullable === 'NO', identity: c.is_identity === 'YES' })
  }
  // Named indexes only: those PostgreSQL makes for a primary key or a UNIQUE column SQLite makes unnamed too.
  const indexes = await sql<{ name: string }[]>`
    SELECT i.indexname AS name FROM pg_indexes i
    WHERE i.schemaname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)
      AND i.tablename <> ALL(${sql.array(SEARCH_TABLES)})`
  const triggers = await sql<{ name: string }[]>`SELECT DISTINCT trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = 'public'`
  return { tables, indexes: indexes.map((i) => i.name).sort(), triggers: triggers.map((t) => t.name).sort() }
}

let dir: string
let sqlite: Schema
let database: PostgresTestDatabase
let sql: SQL
let postgres: Schema

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parley-parity-'))
  const db = migratedDatabase(join(dir, 'parley.db'))
  sqlite = sqliteSchema(db)
  db.close()
  database = await postgresTestDatabase()
  sql = new SQL({ url: database.url, max: 2 })
  postgres = await postgresSchema(sql)
})

afterAll(async () => {
  await sql?.close()
  await database?.drop()
  rmSync(dir, { recursive: true, force: true })
})

describe('the PostgreSQL migration track', () => {
  test('has a twin of every SQLite migration: same ids, same names, same order', () => {
    expect(postgresMigrations.map((m) => `${m.id} ${m.name}`)).toEqual(migrations.map((m) => `${m.id} ${m.name}`))
  })

  test('leaves the same tables', () => {
    expect([...postgres.tables.keys()].sort()).toEqual([...sqlite.tables.keys()].sort())
  })

  test('leaves the same columns, with mapped types and the same NOT NULL', () => {
    const differences: string[] = []
    for (const [table, columns] of sqlite.tables) {
      const twin = postgres.tables.get(table) ?? new Map<string, Column>()
      const search = SEARCH_TABLES.includes(table)
      for (const [name, column] of columns) {
        const other = twin.get(name)
        if (!other) differences.push(`${table}.${name} is missing on PostgreSQL`)
        else if (!search && !(TYPES[column.type] ?? []).includes(other.type)) differences.push(`${table}.${name}: ${column.type} on SQLite, ${other.type} on PostgreSQL`)
        // An identity is NOT NULL by nature where SQLite's column (added by ALTER TABLE) could not be.
        else if (!search && column.notNull !== other.notNull && !(other.identity && !column.notNull)) differences.push(`${table}.${name}: NOT NULL ${column.notNull} on SQLite, ${other.notNull} on PostgreSQL`)
      }
      for (const [name, other] of twin) {
        if (columns.has(name)) continue
        // SQLite's implicit rowid, made explicit where the stores order or key by it.
        if (name === 'rowid' && other.type === 'bigint' && other.notNull) continue
        if (IN_ROWID_ON_SQLITE.includes(`${table}.${name}`)) continue
        differences.push(`${table}.${name} is on PostgreSQL only`)
      }
    }
    expect(differences).toEqual([])
  })

  test('leaves the same named indexes and triggers', () => {
    expect(postgres.indexes).toEqual(sqlite.indexes)
    expect(postgres.triggers).toEqual(sqlite.triggers.filter((name) => !DONE_BY_FOREIGN_KEYS.includes(name)))
  })
})

describe('the triggers', () => {
  const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`
  // Plain SQL both databases take: the rows a conversation's life leaves.
  const LIFE = [
    `INSERT INTO workspaces VALUES ('W', 'w', '${at(0)}')`,
    `INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at(0)}')`,
    `INSERT INTO contacts (id, chatbot_id, external_id, details, created_at) VALUES ('P', 'B', 'grace@navy.mil', '{"name":"Grace Hopper","phone":"+15550100","tags":["a"]}', '${at(1)}')`,
    `INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, state, created_at, last_message_at, seq)
       VALUES ('C', 'B', 'P', 'web', 'bot', '{"state":"ask","variables":{"plan":"pro"}}', '${at(1)}', '${at(1)}', 1)`,
    `UPDATE conversations SET status = 'handoff', updated_at = '${at(2)}' WHERE id = 'C'`,
    `UPDATE conversations SET status = 'handoff', updated_at = '${at(3)}' WHERE id = 'C'`,
    `UPDATE contacts SET details = '{"name":"Grace B. Hopper","phone":"+15550100","tags":["b"],"plan":"pro"}', updated_at = '${at(4)}' WHERE id = 'P'`,
    `INSERT INTO flows (id, chatbot_id, name, type, status, created_at, definition) VALUES ('F', 'B', 'f', 'conversation', 'draft', '${at(0)}', '{}')`,
    `INSERT INTO flow_versions (flow_id, version, published_at, definition) VALUES ('F', 1, '${at(0)}', '{}')`,
  ]
  const READS = {
    // Bun.sql reads bigint as a string: cast, as the PostgreSQL stores will (docs/postgres-plan.md).
    threads: 'SELECT CAST(seq AS INTEGER) AS seq, conversation_id, workspace_id, chatbot_id, channel, status, is_open, handoff_at FROM desk_threads',
    events: 'SELECT conversation_id, kind, at, actor_id, data FROM desk_events ORDER BY id',
    detailTimes: 'SELECT contact_id, key, set_at FROM desk_contact_detail_times ORDER BY key',
  }
  /** The contacts FTS5 trigram search finds, and pg_trgm's ILIKE on the same columns. */
  const found = {
    sqlite: (column: string, text: string) => `SELECT c.id FROM contacts c WHERE c.rowid IN (SELECT rowid FROM desk_contact_search WHERE desk_contact_search MATCH '${column}:"${text}"')`,
    postgres: (column: string, text: string) => `SELECT c.id FROM contacts c JOIN desk_contact_search s ON s.rowid = c.rowid WHERE s.${column} ILIKE '%${text}%'`,
  }
  const SEARCHES: [string, string][] = [['email', 'navy'], ['phone', '5550'], ['name', 'b. hop'], ['name', 'GRACE']]
  const IMMUTABLE = `UPDATE flow_versions SET definition = '{"changed":true}'`
  const parsed = (rows: Record<string, unknown>[]) => rows.map((row) => (typeof row.data === 'string' ? { ...row, data: JSON.parse(row.data) } : row))

  test('leave the same rows on both databases', async () => {
    const db = migratedDatabase(join(dir, 'triggers.db'))
    const other = new SQL({ url: database.url, max: 1 })
    try {
      for (const statement of LIFE) {
        db.exec(statement)
        await other.unsafe(statement)
      }
      for (const [name, query] of Object.entries(READS)) {
        const rows = { name, sqlite: parsed(db.query<Record<string, unknown>, []>(query).all()) }
        expect({ name, postgres: parsed(await other.unsafe(query)) }).toEqual({ name, postgres: rows.sqlite })
      }
      expect(parsed(db.query<Record<string, unknown>, []>(READS.events).all())[0]).toEqual({
        conversation_id: 'C', kind: 'handed_off', at: at(2), actor_id: null, data: { from: 'bot', flow_id: null, flow_version: null, state: 'ask', variables: { plan: 'pro' } },
      })
      for (const [column, text] of SEARCHES) {
        const sqliteFound = db.query<{ id: string }, []>(found.sqlite(column, text)).all()
        expect({ column, text, found: [...(await other.unsafe(found.postgres(column, text)))] }).toEqual({ column, text, found: sqliteFound })
        expect(sqliteFound).toEqual([{ id: 'P' }])
      }
      expect(() => db.exec(IMMUTABLE)).toThrow('flow versions are immutable')
      await expect(other.unsafe(IMMUTABLE)).rejects.toThrow('flow versions are immutable')
      // A deleted contact leaves nothing in the search index (a trigger on SQLite, the foreign key here).
      await other.unsafe(`DELETE FROM contacts WHERE id = 'P'`)
      expect([...(await other.unsafe('SELECT rowid FROM desk_contact_search'))]).toEqual([])
    } finally {
      db.close()
      await other.close()
    }
  })
})

describe('migratePostgres', () => {
  test('applies nothing twice, and refuses a database a newer Parley migrated', async () => {
    expect(await migratePostgres(sql)).toEqual({ applied: [] })
    await expect(migratePostgres(sql, postgresMigrations.slice(0, 5))).rejects.toThrow(`the database has migration ${postgresMigrations.at(-1)?.id} but this Parley knows only up to 5: use a newer Parley`)
  })

  test('rolls a failing migration back whole and does not record it', async () => {
    const broken = { id: 99, name: 'broken', sql: 'CREATE TABLE half_done (x integer); SELECT no_such_column FROM workspaces;' }
    await expect(migratePostgres(sql, [...postgresMigrations, broken])).rejects.toThrow('no_such_column')
    expect([...(await sql`SELECT to_regclass('half_done') AS t`)]).toEqual([{ t: null }])
    expect([...(await sql`SELECT count(*)::int AS n FROM schema_migrations WHERE id = 99`)]).toEqual([{ n: 0 }])
  })

  test('two nodes starting at once on an empty database apply each migration once', async () => {
    const empty = `${database.url}_empty`
    await sql.unsafe(`CREATE DATABASE ${empty.split('/').pop()}`)
    const [a, b] = [new SQL({ url: empty, max: 1 }), new SQL({ url: empty, max: 1 })]
    try {
      const [first, second] = await Promise.all([migratePostgres(a), migratePostgres(b)])
      expect([...first.applied, ...second.applied].sort()).toEqual(postgresMigrations.map((m) => `${String(m.id).padStart(4, '0')}_${m.name}`))
    } finally {
      await a.close()
      await b.close()
      await sql.unsafe(`DROP DATABASE ${empty.split('/').pop()} WITH (FORCE)`)
    }
  })
})
