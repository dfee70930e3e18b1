import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Units } from '../../server/db/units.ts'
import type { Stores } from '../../server/stores.ts'
import { onBothDatabases, sqliteTestDatabase } from '../support/both-databases.ts'

const at = '2026-01-01T00:00:00.000Z'
const SEED = `
  INSERT INTO workspaces VALUES ('W', 'w', '${at}');
  INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}');
  INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('P', 'B', '${at}');
  INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq)
    VALUES ('C1', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1), ('C2', 'B', 'P', 'web', 'bot', '${at}', '${at}', 2);
`
const pause = () => Bun.sleep(5)

/**
 * A turn that reads, waits (an awaited read, a model call's result...) and writes what it
 * read plus one: two that overlap without being ordered lose one of the two writes.
 */
const turn = (counter: string) => async (tx: Stores) => {
  const seen = Number((await tx.instance.get(counter)) ?? 0)
  await pause()
  await tx.instance.set(counter, String(seen + 1))
}

/** Runs `n` turns at once, as `n` messages arriving together would. */
const turns = (n: number, run: (work: (tx: Stores) => Promise<void>) => Promise<void>, counter: string) =>
  Promise.all(Array.from({ length: n }, () => run(turn(counter))))

onBothDatabases('the unit of work', (database) => {
  beforeAll(() => database().exec(SEED))

  test('stores a unit\'s writes together and resolves with its result once they are committed', async () => {
    const { units, stores, query } = database()
    const result = await units.unit(async (tx) => {
      await tx.instance.set('together.a', '1')
      await tx.instance.set('together.b', '2')
      return 'done'
    })
    expect(result).toBe('done')
    expect(await stores.instance.get('together.b')).toBe('2')
    expect(await query(`SELECT key, value FROM instance_settings WHERE key LIKE 'together.%' ORDER BY key`)).toEqual([
      { key: 'together.a', value: '1' },
      { key: 'together.b', value: '2' },
    ])
  })

  test('a unit that throws stores nothing and rejects with its error', async () => {
    const { units, stores } = database()
    const refused = new Error('refused')
    await expect(units.unit(async (tx) => {
      await tx.instance.set('thrown.a', '1')
      throw refused
    })).rejects.toBe(refused)
    expect(await stores.instance.get('thrown.a')).toBeUndefined()
  })

  test('units of one conversation run one after another: overlapping turns lose nothing', async () => {
    const { units } = database()
    await turns(12, (work) => units.conversationUnit('C1', work), 'turns.ordered')
    expect(await database().stores.instance.get('turns.ordered')).toBe('12')
  })

  test('plain units are not ordered: the same overlapping turns lose writes (what the lock is for)', async () => {
    const { units } = database()
    await turns(12, (work) => units.unit(work), 'turns.unordered')
    expect(Number(await database().stores.instance.get('turns.unordered'))).toBeLessThan(12)
  })

  test('units of different conversations do not wait for each other', async () => {
    const { units } = database()
    const order: string[] = []
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let ran: () => void = () => {}
    const secondRan = new Promise<void>((resolve) => (ran = resolve))
    let started: () => void = () => {}
    const firstStarted = new Promise<void>((resolve) => (started = resolve))
    const first = units.conversationUnit('C1', async () => {
      order.push('C1 starts')
      started()
      await held
      order.push('C1 ends')
    })
    await firstStarted
    const second = units.conversationUnit('C2', async () => {
      order.push('C2 runs')
      ran()
    })
    await secondRan
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['C1 starts', 'C2 runs', 'C1 ends'])
  })

  test('two nodes on one database keep one conversation\'s turns ordered too', async () => {
    const other = database().otherNode()
    if (!other) return // SQLite: one process per file.
    const nodes: Units<Stores>[] = [database().units, other.units]
    // Both pools connected first, so that the nodes' turns overlap from the start.
    await Promise.all(nodes.map((units) => units.unit((tx) => tx.instance.get('warm'))))
    await Promise.all(nodes.map((units) => turns(8, (work) => units.conversationUnit('C1', work), 'turns.nodes')))
    expect(await database().stores.instance.get('turns.nodes')).toBe('16')
  })
})

describe('the unit of work on SQLite: group commit', () => {
  let sqlite: Awaited<ReturnType<typeof sqliteTestDatabase>>
  beforeAll(async () => {
    sqlite = await sqliteTestDatabase()
    await sqlite.exec(SEED)
  })
  afterAll(() => sqlite.close())

  test('units started in one turn of the loop share one commit with the batcher\'s other writes', async () => {
    const { units, batch, db } = sqlite
    const before = batch.stamp()
    const written = Array.from({ length: 5 }, (_, i) => units.unit((tx) => tx.instance.set(`shared.${i}`, 'x')))
    batch.run(() => db.exec(`INSERT INTO instance_settings VALUES ('shared.run', 'x')`))
    expect(batch.stamp()).toBe(before)
    await Promise.all(written)
    expect(batch.stamp()).toBe(before + 1)
    expect(db.query('SELECT count(*) AS n FROM instance_settings WHERE key LIKE \'shared.%\'').get()).toEqual({ n: 6 })
  })

  test('a unit that waits across turns of the loop holds the commit: its writes are committed together', async () => {
    const { units, batch, db } = sqlite
    const committed = () => db.inTransaction === false
    let sawOpen = false
    await units.unit(async (tx) => {
      await tx.instance.set('held.a', '1')
      batch.soon()
      await Bun.sleep(5)
      sawOpen = !committed()
      await tx.instance.set('held.b', '2')
    })
    expect(sawOpen).toBe(true)
    expect(committed()).toBe(true)
    expect(db.query('SELECT count(*) AS n FROM instance_settings WHERE key LIKE \'held.%\'').get()).toEqual({ n: 2 })
  })

  test('one failing unit rolls back the units that share its batch: they reject, nothing of them is stored', async () => {
    const { units, stores } = sqlite
    const bystander = units.unit((tx) => tx.instance.set('batch.bystander', '1')).then(() => 'stored', (error: Error) => error.message)
    const failing = units.unit(async (tx) => {
      await tx.instance.set('batch.failing', '1')
      await pause()
      throw new Error('refused')
    })
    await expect(failing).rejects.toThrow('refused')
    expect(await bystander).toBe('the unit was rolled back with its batch')
    expect(await stores.instance.get('batch.bystander')).toBeUndefined()
    // The next unit starts a new batch.
    await units.unit((tx) => tx.instance.set('batch.after', '1'))
    expect(await stores.instance.get('batch.after')).toBe('1')
  })

  test('a unit on a closed database rejects, never throws where it is called', async () => {
    const closed = await sqliteTestDatabase()
    await closed.close()
    let started: Promise<unknown> | undefined
    expect(() => {
      started = closed.units.unit((tx) => tx.instance.set('never', '1'))
    }).not.toThrow()
    await expect(started as Promise<unknown>).rejects.toThrow()
    expect(() => {
      started = closed.units.conversationUnit('C1', (tx) => tx.instance.set('never', '1'))
    }).not.toThrow()
    await expect(started as Promise<unknown>).rejects.toThrow()
  })
})
