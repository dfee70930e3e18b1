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

  test('beforeCommit runs in the open batch just before its commit, once per call; with no batch open, at once', async () => {
    const { db, batch, add, rows } = setUp()
    const seen: string[] = []
    batch.run(() => add(1))
    batch.beforeCommit(() => {
      seen.push(`hook in transaction: ${db.inTransaction}`)
      add(10)
      batch.beforeCommit(() => add(20))
    })
    batch.run(() => add(2))
    expect(rows()).toEqual([1, 2])
    await nextTurnOfTheLoop()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([1, 2, 10, 20])
    expect(seen).toEqual(['hook in transaction: true'])
    batch.beforeCommit(() => add(30))
    expect(rows()).toEqual([1, 2, 10, 20, 30])
  })

  test('a failing beforeCommit rolls the batch back and announces nothing; a rolled-back batch drops its hooks', async () => {
    const { db, batch, errors, add, rows } = setUp()
    const announced: number[] = []
    batch.run(() => add(1), () => announced.push(1))
    batch.beforeCommit(() => add(null))
    await nextTurnOfTheLoop()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([])
    expect(announced).toEqual([])
    expect(errors).toHaveLength(1)
    batch.run(() => add(2))
    batch.beforeCommit(() => add(3))
    expect(() => batch.run(() => add(null))).toThrow('NOT NULL')
    batch.run(() => add(4))
    await nextTurnOfTheLoop()
    expect(rows()).toEqual([4])
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

  test('soon commits once the current task is done, before the next turn of the loop, with what the task wrote after it', async () => {
    const { db, batch, add, rows } = setUp()
    const announced: number[] = []
    batch.run(() => add(1), () => announced.push(1))
    batch.soon()
    batch.soon()
    batch.run(() => add(2), () => announced.push(2))
    expect(db.inTransaction).toBe(true)
    await Promise.resolve()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([1, 2])
    expect(announced).toEqual([1, 2])
    // A batch opened later waits for its turn of the loop again, unless asked to hurry too.
    batch.run(() => add(3))
    await Promise.resolve()
    expect(db.inTransaction).toBe(true)
    await nextTurnOfTheLoop()
    expect(rows()).toEqual([1, 2, 3])
  })

  test('soon with no batch open does nothing', async () => {
    const { db, batch, rows } = setUp()
    batch.soon()
    await nextTurnOfTheLoop()
    expect(db.inTransaction).toBe(false)
    expect(rows()).toEqual([])
  })

  describe('answering for the writes made since a stamp', () => {
    test('with no batch open and none rolled back, everything written since is committed at once', () => {
      const { batch, add } = setUp()
      const stamp = batch.stamp()
      add(1)
      expect(batch.outcomeSince(stamp)).toBe(true)
    })

    test('a batch still open answers once it is committed, and by then the rows are there', async () => {
      const { batch, add, rows } = setUp()
      const stamp = batch.stamp()
      batch.run(() => add(1))
      const outcome = batch.outcomeSince(stamp)
      expect(outcome).toBeInstanceOf(Promise)
      let seen: number[] = []
      const committed = await (outcome as Promise<boolean>).then((value) => ((seen = rows()), value))
      expect(committed).toBe(true)
      expect(seen).toEqual([1])
    })

    test('everyone waiting on one batch shares its outcome', async () => {
      const { batch, add } = setUp()
      const stamp = batch.stamp()
      batch.run(() => add(1))
      const first = batch.outcomeSince(stamp)
      batch.run(() => add(2))
      const second = batch.outcomeSince(stamp)
      expect(second).toBe(first)
      expect(await first).toBe(true)
    })

    test('a write made directly while a batch is open is answered with that batch', async () => {
      const { db, batch, add, rows } = setUp()
      batch.run(() => add(1))
      const stamp = batch.stamp()
      add(2)
      expect(db.inTransaction).toBe(true)
      expect(await batch.outcomeSince(stamp)).toBe(true)
      expect(rows()).toEqual([1, 2])
    })

    test('a unit rolled back by a later failing write in its batch is answered as not stored, even after the batch is gone', async () => {
      const { batch, add, rows } = setUp()
      const stamp = batch.stamp()
      batch.run(() => add(1))
      const waiting = batch.outcomeSince(stamp)
      expect(() => batch.run(() => add(null))).toThrow('NOT NULL')
      expect(await waiting).toBe(false)
      expect(batch.outcomeSince(stamp)).toBe(false)
      expect(rows()).toEqual([])
    })

    test('a batch whose commit fails is answered as not stored; later batches are not held to it', async () => {
      const { db, batch, errors, add, rows } = setUp()
      // A deferred foreign key is checked by COMMIT itself: a real commit that fails.
      db.exec('PRAGMA foreign_keys = ON')
      db.exec('CREATE TABLE anchor (id INTEGER PRIMARY KEY)')
      db.exec('CREATE TABLE orphan (anchor_id INTEGER REFERENCES anchor (id) DEFERRABLE INITIALLY DEFERRED)')
      const stamp = batch.stamp()
      batch.run(() => {
        add(1)
        db.run('INSERT INTO orphan VALUES (42)')
      })
      expect(await batch.outcomeSince(stamp)).toBe(false)
      expect(errors).toHaveLength(1)
      expect(rows()).toEqual([])

      const later = batch.stamp()
      batch.run(() => add(2))
      expect(await batch.outcomeSince(later)).toBe(true)
      expect(rows()).toEqual([2])
      expect(batch.outcomeSince(stamp)).toBe(false)
    })

    test('flush settles the open batch for those waiting on it', async () => {
      const { batch, add } = setUp()
      const stamp = batch.stamp()
      batch.run(() => add(1))
      const outcome = batch.outcomeSince(stamp)
      batch.flush()
      expect(await outcome).toBe(true)
      expect(batch.outcomeSince(stamp)).toBe(true)
    })
  })
})
