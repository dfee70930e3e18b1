import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../server/db/migrate.ts'
import type { Migration } from '../../server/db/migration.ts'
import { migrations } from '../../server/db/migrations/index.ts'
import { openDatabase } from '../../server/db/open-database.ts'

const dirs: string[] = []
const freshFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-db-'))
  dirs.push(dir)
  return join(dir, 'parley.db')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('opening the database', () => {
  test('sets WAL, synchronous NORMAL, a busy timeout, foreign keys and a page cache a busy write batch fits in', () => {
    const db = openDatabase(freshFile())
    expect(db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(db.query('PRAGMA synchronous').get()).toEqual({ synchronous: 1 })
    expect(db.query<{ timeout: number }, []>('PRAGMA busy_timeout').get()?.timeout).toBeGreaterThanOrEqual(1000)
    expect(db.query('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    // 16 MB instead of SQLite's 2 MB (negative: KiB): docs/performance.md, issue 34's third round.
    expect(db.query('PRAGMA cache_size').get()).toEqual({ cache_size: -16_000 })
    db.close()
  })
})

describe('migrations', () => {
  test('are numbered in strictly increasing order', () => {
    const ids = migrations.map((m) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
  })

  test('apply once, are recorded, and a second run applies nothing', () => {
    const db = openDatabase(freshFile())
    expect(migrate(db).applied).toHaveLength(migrations.length)
    expect(migrate(db).applied).toEqual([])
    const recorded = db.query<{ id: number }, []>('SELECT id FROM schema_migrations ORDER BY id').all().map((r) => r.id)
    expect(recorded).toEqual(migrations.map((m) => m.id))
    db.close()
  })

  test('a failing migration rolls back entirely and is not recorded', () => {
    const db = openDatabase(freshFile())
    const broken: Migration[] = [
      { id: 1, name: 'good', up: (d) => d.exec('CREATE TABLE a (x)') },
      { id: 2, name: 'bad', up: (d) => d.exec('CREATE TABLE b (x); INSERT INTO nowhere VALUES (1)') },
    ]
    expect(() => migrate(db, broken)).toThrow('no such table')
    expect(db.query('SELECT name FROM sqlite_master WHERE name = ?').get('b')).toBeNull()
    expect(db.query('SELECT id FROM schema_migrations').all()).toEqual([{ id: 1 }])
    db.close()
  })

  test('a database from a newer Parley is refused rather than guessed at', () => {
    const db = openDatabase(freshFile())
    migrate(db)
    db.query('INSERT INTO schema_migrations VALUES (999, ?, ?)').run('future', new Date().toISOString())
    expect(() => migrate(db)).toThrow('use a newer Parley')
    db.close()
  })

  test('out-of-order migrations are a programming error', () => {
    const db = openDatabase(freshFile())
    const out: Migration[] = [
      { id: 2, name: 'b', up: () => {} },
      { id: 1, name: 'a', up: () => {} },
    ]
    expect(() => migrate(db, out)).toThrow('out of order')
    db.close()
  })
})
