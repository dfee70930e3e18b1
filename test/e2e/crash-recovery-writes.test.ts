import { afterAll, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { crashBed, tally } from './support/crash-bed.ts'
import { type Acknowledged, makeTargets, outsideWorld, startLoad, type Targets } from './support/crash-load.ts'

/**
 * kill -9 of the compiled binary while visitors chat and API clients write: every write the
 * server acknowledged (the widget's confirmation, a 201, a 202, the provider's 200) is in the
 * database afterwards, and none is stored twice. Several runs on one data folder, each one a
 * restart after the crash before.
 */

const RUNS = 3
const LOAD_MS = 1_500
const SHAPE = { visitors: 12, agents: 3, restApiClients: 3, chatappSenders: 2 }

const world = outsideWorld()
const bed = crashBed(world.env)
afterAll(async () => {
  await bed.close()
  world.stop()
})

/** How often each id of each kind is stored. */
function storedIds(db: Database) {
  const visitorIds = (channel: string) =>
    db
      .query<{ client_id: string }, [string]>(
        `SELECT m.client_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.channel = ? AND m.role = 'visitor' AND m.client_id IS NOT NULL`,
      )
      .all(channel)
      .map((row) => row.client_id)
  const agentTexts = db
    .query<{ content: string }, []>(`SELECT content FROM messages WHERE role = 'agent'`)
    .all()
    .map((row) => (JSON.parse(row.content) as { text: string }).text)
  return {
    widget: tally(visitorIds('web')),
    agent: tally(agentTexts),
    restApi: tally(visitorIds('rest-api')),
    chatapp: tally(visitorIds('chatapp')),
    chatappInbound: tally(db.query<{ wamid: string }, []>('SELECT wamid FROM chatapp_inbound').all().map((row) => row.wamid)),
  }
}

test('kill -9 under chat load and API writes: every acknowledged write is stored, none twice', async () => {
  await bed.start()
  const targets: Targets = await makeTargets(bed, world)
  const all: Acknowledged = { widget: [], agent: [], restApi: [], chatapp: [] }

  for (let run = 1; run <= RUNS; run++) {
    if (run > 1) await bed.start()
    const load = startLoad(bed, targets, SHAPE, `run${run}`)
    await Bun.sleep(LOAD_MS)
    await bed.kill()
    await load.settle()
    for (const kind of Object.keys(all) as (keyof Acknowledged)[]) all[kind].push(...load.acked[kind])
  }

  const stored = bed.read(storedIds)
  const report = (kind: keyof Acknowledged) => {
    const acknowledged = all[kind]
    const lost = acknowledged.filter((id) => !stored[kind].has(id))
    const twice = [...stored[kind].values()].filter((count) => count > 1).length
    return { acknowledged: acknowledged.length, stored: acknowledged.length - lost.length, lost, twice }
  }
  const widget = report('widget')
  const agent = report('agent')
  const restApi = report('restApi')
  const chatapp = report('chatapp')
  console.log(
    `crash: kill -9 under load, ${RUNS} runs: widget acknowledged=${widget.acknowledged} stored=${widget.stored} duplicates=${widget.twice}; ` +
      `agent 201=${agent.acknowledged} stored=${agent.stored} duplicates=${agent.twice}; ` +
      `rest-api 202=${restApi.acknowledged} stored=${restApi.stored} duplicates=${restApi.twice}; ` +
      `chatapp 200=${chatapp.acknowledged} stored=${chatapp.stored} duplicates=${chatapp.twice}`,
  )

  // Every kind of write really was under load when the server died.
  for (const kind of [widget, agent, restApi, chatapp]) expect(kind.acknowledged).toBeGreaterThan(20)
  expect({ widget: widget.lost, agent: agent.lost, restApi: restApi.lost, chatapp: chatapp.lost }).toEqual({ widget: [], agent: [], restApi: [], chatapp: [] })
  expect([widget.twice, agent.twice, restApi.twice, chatapp.twice]).toEqual([0, 0, 0, 0])
  expect([...stored.chatappInbound.values()].every((count) => count === 1)).toBe(true)

  // And the data folder still serves after the last crash.
  await bed.start()
  const conversations = await bed.must('GET', `/api/dev/v1/chatbots/${targets.restApiBot}/conversations?limit=1`)
  expect(conversations.total).toBeGreaterThan(0)
}, 60_000)
