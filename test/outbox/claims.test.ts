import { expect, test } from 'bun:test'
import type { BusyDeliveries } from '../../server/outbox/outbox-claims.ts'
import type { AttemptRecord } from '../../server/outbox/outbox-store.ts'
import { onBothDatabases, type TestDatabase } from '../support/both-databases.ts'

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`
const NOW = at(30)
const LEASE = at(45)
const nothingBusy: BusyDeliveries = new Map<number, unknown>()
const attempt = (minute: number, statusCode: number | null, error: string | null = null): AttemptRecord => ({ at: at(minute), url: 'https://receiver.test/hook', statusCode, error })

interface Row {
  id: string
  key?: string
  due: string | null
  integration?: string
  status?: string
  finished?: string | null
}

/** Deliveries as turns leave them (plain SQL on both databases); the outbox emptied first: each case keeps to its own rows. */
async function seed(database: TestDatabase, rows: Row[]): Promise<Map<string, number>> {
  await database.exec(`DELETE FROM outbox`)
  await database.exec(`INSERT INTO workspaces (id, name, created_at) SELECT 'W', 'w', '${at(0)}' WHERE NOT EXISTS (SELECT 1 FROM workspaces WHERE id = 'W')`)
  await database.exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) SELECT 'B', 'W', 'b', '${at(0)}' WHERE NOT EXISTS (SELECT 1 FROM chatbots WHERE id = 'B')`)
  const quoted = (value: string | null | undefined) => (value == null ? 'NULL' : `'${value}'`)
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows.slice(i, i + 500).map(
      (r) => `('${r.id}', 'webhook', 'B', '${r.integration ?? 'I'}', '${r.key ?? r.id}', 'message.created', '{}', 'https://receiver.test/hook',
        '${r.status ?? 'pending'}', ${quoted(r.due)}, '${at(0)}', ${quoted(r.finished)})`,
    )
    await database.exec(`INSERT INTO outbox (id, kind, chatbot_id, integration_id, ordering_key, event_type, body, url, status, next_attempt_at, created_at, finished_at) VALUES ${values.join(',')}`)
  }
  const seqs = await database.query<{ id: string; seq: number | string }>(`SELECT id, seq FROM outbox`)
  return new Map(seqs.map((row) => [row.id, Number(row.seq)]))
}

const rowOf = async (database: TestDatabase, id: string) =>
  (await database.query<Record<string, unknown>>(`SELECT status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error, finished_at, receipt FROM outbox WHERE id = '${id}'`))[0]

onBothDatabases('the outbox claims', (database) => {
  test('a claim takes what is due in due order, not what is busy, waiting or later; each counts an attempt and is leased', async () => {
    const { stores, units } = database()
    const seq = await seed(database(), [
      { id: 'a', due: at(20) },
      { id: 'b', due: at(10) },
      { id: 'later', due: at(50) },
      { id: 'busy', due: at(5) },
      { id: 'a2', key: 'a', due: null },
      { id: 'c', due: at(25) },
    ])
    expect(await stores.outboxClaims.nextDueAt('webhook')).toBe(at(5))
    const id = (name: string) => seq.get(name) as number
    const busy = new Map([[id('busy'), {}]])
    const claimed = await units.unit((tx) => tx.outboxClaims.claimDue('webhook', NOW, 2, LEASE, busy))
    expect(claimed.map((row) => [row.id, row.seq, row.attempts, row.next_attempt_at, row.last_attempt_at])).toEqual([
      ['b', id('b'), 1, LEASE, NOW],
      ['a', id('a'), 1, LEASE, NOW],
    ])
    const rest = await units.unit((tx) => tx.outboxClaims.claimDue('webhook', NOW, 10, LEASE, busy))
    expect(rest.map((row) => row.id)).toEqual(['c'])
    expect(await units.unit((tx) => tx.outboxClaims.claimDue('webhook', NOW, 10, LEASE, busy))).toEqual([])
    expect(await units.unit((tx) => tx.outboxClaims.claimDue('chatapp', NOW, 10, LEASE, nothingBusy))).toEqual([])
    expect(await units.unit((tx) => tx.outboxClaims.claimDue('webhook', NOW, 0, LEASE, nothingBusy))).toEqual([])
  })

  test("an attempt's outcome is recorded; a delivery finished either way lets the next of its key fall due", async () => {
    const { stores, units } = database()
    const seq = await seed(database(), [
      { id: 'k1', key: 'k', due: at(1) },
      { id: 'k2', key: 'k', due: null },
      { id: 'k3', key: 'k', due: null },
      { id: 'r', due: at(1) },
      { id: 'dropped', due: null, status: 'failed', finished: at(2) },
    ])
    const id = (name: string) => seq.get(name) as number
    await units.unit((tx) => tx.outboxClaims.delivered(id('k1'), attempt(3, 204), { receipt: 'wamid.1', note: null }))
    expect(await rowOf(database(), 'k1')).toMatchObject({ status: 'delivered', next_attempt_at: null, finished_at: at(3), last_status_code: 204, receipt: 'wamid.1' })
    expect(await rowOf(database(), 'k2')).toMatchObject({ status: 'pending', next_attempt_at: at(3) })
    expect(await rowOf(database(), 'k3')).toMatchObject({ status: 'pending', next_attempt_at: null })
    await units.unit((tx) => tx.outboxClaims.fail(id('k2'), attempt(4, 410, 'HTTP 410: gone')))
    expect(await rowOf(database(), 'k2')).toMatchObject({ status: 'failed', finished_at: at(4), last_error: 'HTTP 410: gone' })
    expect(await rowOf(database(), 'k3')).toMatchObject({ status: 'pending', next_attempt_at: at(4) })
    await units.unit((tx) => tx.outboxClaims.retryAt(id('r'), at(9), attempt(5, 500, 'HTTP 500: later')))
    expect(await rowOf(database(), 'r')).toMatchObject({ status: 'pending', next_attempt_at: at(9), last_status_code: 500, last_error: 'HTTP 500: later' })
    // Dropped while it was being sent: the receiver did get it.
    await units.unit((tx) => tx.outboxClaims.delivered(id('dropped'), attempt(6, 200)))
    expect(await rowOf(database(), 'dropped')).toMatchObject({ status: 'delivered', finished_at: at(6), last_error: null })
    expect(await stores.outboxClaims.nextDueAt('webhook')).toBe(at(4))
  })

  test("dropping an integration fails its pending deliveries, waiting ones too; pruning forgets finished ones of a kind: each answers how many", async () => {
    const { units } = database()
    await seed(database(), [
      { id: 'mine', key: 'm', due: at(1) },
      { id: 'mine-waiting', key: 'm', due: null },
      { id: 'theirs', due: at(1), integration: 'other' },
      { id: 'old', due: null, status: 'delivered', finished: at(1) },
      { id: 'recent', due: null, status: 'failed', finished: at(40) },
    ])
    expect(await units.unit((tx) => tx.outboxClaims.failPendingOfIntegration('I', at(7), 'the integration was deleted'))).toBe(2)
    expect(await rowOf(database(), 'mine-waiting')).toMatchObject({ status: 'failed', finished_at: at(7), last_error: 'the integration was deleted' })
    expect(await rowOf(database(), 'theirs')).toMatchObject({ status: 'pending' })
    expect(await units.unit((tx) => tx.outboxClaims.prune('chatapp', at(30)))).toBe(0)
    // 'old' and the two just dropped (finished at 7) are older than 30; 'recent' and the pending one stay.
    expect(await units.unit((tx) => tx.outboxClaims.prune('webhook', at(30)))).toBe(3)
    expect((await database().query<{ id: string }>(`SELECT id FROM outbox ORDER BY id`)).map((row) => row.id)).toEqual(['recent', 'theirs'])
  })

  test('claimers at once (two pools on PostgreSQL, as two nodes) take every due delivery, none twice', async () => {
    const first = database()
    const claimers = [first, first.otherNode() ?? first]
    const count = 400
    await seed(first, Array.from({ length: count }, (_, n) => ({ id: `d${String(n).padStart(4, '0')}`, due: at(n % 30) })))
    const taken: string[] = []
    for (let round = 0; round < 100; round++) {
      // Four claims at once from each node, ten at a time each.
      const claims = claimers.flatMap((node) => Array.from({ length: 4 }, () => node.units.unit((tx) => tx.outboxClaims.claimDue('webhook', NOW, 10, LEASE, nothingBusy))))
      const rows = (await Promise.all(claims)).flat()
      if (rows.length === 0) break
      taken.push(...rows.map((row) => row.id))
    }
    expect(taken.length).toBe(count)
    expect(new Set(taken).size).toBe(count)
    expect(await first.query<{ attempts: number; n: number | string }>(`SELECT attempts, count(*) AS n FROM outbox GROUP BY attempts`)).toEqual([
      { attempts: 1, n: first.kind === 'postgres' ? String(count) : count },
    ])
  })
})
