import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { writeBatcher } from '../../server/db/write-batcher.ts'

function setUp() {
  const db = new Database(':memory:', { strict: true })
  db.exec('CREATE TABLE t (x INTEGER NOT NULL)')
  const errors: unknown[] = []
  const batch = writeBatcher(db, (error) => errors.push(error))
  const insert = db.query('INSERT INTO t (x) VALUES (?)')
  const rows = () => db.query<{ x: number }, []>('SELECT x FROM t ORDER BY x').all().map((row) => row.x)
  return { db, batch, errors, add: (x: number | null) => insert.run(x as number), rows }
}

const nextTurnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('the write batcher', () => {
  test('the writes of one turn share one transaction, committed after the turn, and only then announced', async () => {
    const { db, batch, add, rows } = setUp()
    const announced: number[] = []
    batch.run(() => add(1), () => announced.push(1))
    batch.run(() => add(2), () => announced.push(2))
    expect(db.inTransaction).toBe(true)
    expect(announced).toEqual([])
    await nextTurnOfTheLoop()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([1, 2])
    expect(announced).toEqual([1, 2])
  })

  test('a failing write rolls the whole batch back and announces nothing', async () => {
    const { db, batch, errors, add, rows } = setUp()
    const announced: number[] = []
    batch.run(() => add(1), () => announced.push(1))
    expect(() => batch.run(() => add(null))).toThrow('NOT NULL')
    await nextTurnOfTheLoop()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([])
    expect(announced).toEqual([])
    expect(errors).toHaveLength(1)
  })

  test('flush commits at once, and also what the announcements write in turn, until nothing is open', () => {
    const { db, batch, add, rows } = setUp()
    batch.run(
      () => add(1),
      () => batch.run(() => add(2), () => batch.run(() => add(3))),
    )
    batch.flush()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([1, 2, 3])
  })
})
