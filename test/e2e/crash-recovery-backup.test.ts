import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { crashBed } from './support/crash-bed.ts'
import { makeTargets, outsideWorld, startLoad } from './support/crash-load.ts'

/**
 * `parley backup` five times while the compiled server takes chat and API writes: each copy
 * opens, passes integrity_check and holds every message acknowledged before the backup began.
 */

const BACKUPS = 5

const world = outsideWorld()
const bed = crashBed(world.env)
afterAll(async () => {
  await bed.close()
  world.stop()
})

test('parley backup five times under load: each copy is whole and holds the recent messages', async () => {
  await bed.start()
  const targets = await makeTargets(bed, world)
  const load = startLoad(bed, targets, { visitors: 8, agents: 1, restApiClients: 1, chatappSenders: 1 }, 'backup')
  await Bun.sleep(300)

  const copies: { messages: number; integrity: string; acknowledgedBefore: number; missing: string[] }[] = []
  for (let n = 1; n <= BACKUPS; n++) {
    const before = { widget: [...load.acked.widget], agent: [...load.acked.agent], restApi: [...load.acked.restApi] }
    const file = join(bed.dataDir, 'backups', `copy-${n}.db`)
    const backup = Bun.spawn([compiledParley(), 'backup', file], { env: { ...process.env, PARLEY_DATA_DIR: bed.dataDir }, stdout: 'pipe', stderr: 'pipe' })
    expect(await backup.exited).toBe(0)

    const copy = new Database(file, { readonly: true })
    try {
      const integrity = copy.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all().map((row) => row.integrity_check).join('; ')
      const clientIds = new Set(copy.query<{ client_id: string }, []>('SELECT client_id FROM messages WHERE client_id IS NOT NULL').all().map((row) => row.client_id))
      const agentTexts = new Set(copy.query<{ content: string }, []>(`SELECT content FROM messages WHERE role = 'agent'`).all().map((row) => (JSON.parse(row.content) as { text: string }).text))
      const missing = [...before.widget, ...before.restApi].filter((id) => !clientIds.has(id)).concat(before.agent.filter((text) => !agentTexts.has(text)))
      const messages = copy.query<{ n: number }, []>('SELECT count(*) AS n FROM messages').get()!.n
      copies.push({ messages, integrity, acknowledgedBefore: before.widget.length + before.agent.length + before.restApi.length, missing })
    } finally {
      copy.close()
    }
    await Bun.sleep(150)
  }
  await bed.kill()
  await load.settle()

  console.log(
    `crash: parley backup x${BACKUPS} under load: ${copies.map((c, i) => `#${i + 1} integrity=${c.integrity} messages=${c.messages} acknowledged before=${c.acknowledgedBefore} missing=${c.missing.length}`).join('; ')}`,
  )
  for (const copy of copies) {
    expect(copy.integrity).toBe('ok')
    expect(copy.missing).toEqual([])
  }
  // The copies follow the load: each later one holds more, and the load was running throughout.
  const counts = copies.map((copy) => copy.messages)
  expect(counts).toEqual([...counts].sort((a, b) => a - b))
  expect(new Set(counts).size).toBe(BACKUPS)
  expect(copies.every((copy) => copy.acknowledgedBefore > 0)).toBe(true)
}, 60_000)
