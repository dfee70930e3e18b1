import { expect, test } from 'bun:test'
import { knowledgeIndexer } from '../../server/knowledge/indexer.ts'
import type { SourceRecord } from '../../server/knowledge/store.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { onBothDatabases, type TestDatabase } from '../support/both-databases.ts'

const T0 = Date.parse('2026-05-01T10:00:00.000Z')
const source = (id: string, chatbot: string, content: string, extra: Partial<SourceRecord> = {}): SourceRecord => ({
  id,
  chatbot_id: chatbot,
  type: 'text',
  title: `source ${id}`,
  content,
  size_bytes: content.length,
  status: 'queued',
  failure: null,
  passages: 0,
  created_at: new Date(T0).toISOString(),
  updated_at: new Date(T0).toISOString(),
  indexed_at: null,
  ...extra,
})

/** An indexer on the test database with a clock the case moves. */
function indexerOn(database: TestDatabase, soleWriter: boolean, clock: { ms: number }) {
  return knowledgeIndexer({
    stores: database.stores,
    units: database.units,
    now: () => new Date(clock.ms).toISOString(),
    logger: createLogger('silent', memorySink()),
    soleWriter,
    tuning: { leaseMs: 60_000, maxAttempts: 3, pollMs: 3_600_000 },
  })
}

async function chatbot(database: TestDatabase, id: string) {
  await database.exec('DELETE FROM knowledge_sources')
  await database.exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W${id}', 'w', '2026-01-01T00:00:00.000Z')`)
  await database.exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('${id}', 'W${id}', 'b', '2026-01-01T00:00:00.000Z')`)
}

const statusOf = async (database: TestDatabase, chatbotId: string, id: string) => {
  const row = await database.stores.knowledge.get(chatbotId, id)
  return { status: row?.status, failure: row?.failure, passages: row?.passages }
}

onBothDatabases('the knowledge indexer', (database) => {
  test('indexes every queued source into passages (a pair: one passage titled by its question)', async () => {
    const db = database()
    await chatbot(db, 'B1')
    await db.units.unit(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.knowledge.insert(source(`Q${i}`, 'B1', `# Part ${i}\n\nParagraph about topic${i}.`))
      await tx.knowledge.insert(source('QA', 'B1', 'Open nine to five.', { type: 'qa', title: 'When are you open?' }))
    })
    const indexer = indexerOn(db, false, { ms: T0 })
    await indexer.start()
    await indexer.idle()
    for (let i = 0; i < 5; i++) expect(await statusOf(db, 'B1', `Q${i}`)).toEqual({ status: 'ready', failure: null, passages: 1 })
    expect(await statusOf(db, 'B1', 'QA')).toEqual({ status: 'ready', failure: null, passages: 1 })
    expect((await db.stores.knowledge.search('B1', ['open'], 5)).map((hit) => hit.title)).toEqual(['When are you open?'])
    await indexer.close()
  })

  test('a source a crash left indexing is taken up at start when this process is the only writer, else once its lease ends', async () => {
    const db = database()
    await chatbot(db, 'B2')
    await db.units.unit((tx) => tx.knowledge.insert(source('C1', 'B2', 'Crash-proof text about lighthouses.')))
    const clock = { ms: T0 }
    // The crashed run: claimed, its lease a minute long, never finished.
    await db.units.unit((tx) => tx.knowledge.claimNext(new Date(clock.ms).toISOString(), new Date(clock.ms + 60_000).toISOString(), 'crashed'))

    const otherNode = indexerOn(db, false, clock)
    await otherNode.start()
    await otherNode.idle()
    expect((await statusOf(db, 'B2', 'C1')).status).toBe('indexing')
    clock.ms += 61_000
    otherNode.wake()
    await otherNode.idle()
    expect(await statusOf(db, 'B2', 'C1')).toEqual({ status: 'ready', failure: null, passages: 1 })
    await otherNode.close()

    await db.units.unit((tx) => tx.knowledge.requeue('B2', 'C1', new Date(clock.ms).toISOString()))
    await db.units.unit((tx) => tx.knowledge.claimNext(new Date(clock.ms).toISOString(), new Date(clock.ms + 60_000).toISOString(), 'crashed again'))
    const restarted = indexerOn(db, true, clock)
    await restarted.start()
    await restarted.idle()
    expect(await statusOf(db, 'B2', 'C1')).toEqual({ status: 'ready', failure: null, passages: 1 })
    await restarted.close()
  })

  test('a source that stopped the indexer three times is failed with why; a text of headings only is failed with why', async () => {
    const db = database()
    await chatbot(db, 'B3')
    await db.units.unit(async (tx) => {
      await tx.knowledge.insert(source('F1', 'B3', 'Poison text.'))
      await tx.knowledge.insert(source('F2', 'B3', '# Only\n\n## Headings', { created_at: new Date(T0 + 1).toISOString(), updated_at: new Date(T0 + 1).toISOString() }))
    })
    const clock = { ms: T0 }
    for (let crash = 0; crash < 3; crash++) {
      await db.units.unit((tx) => tx.knowledge.claimNext(new Date(clock.ms).toISOString(), new Date(clock.ms + 60_000).toISOString(), `crash ${crash}`))
      await db.units.unit((tx) => tx.knowledge.requeueInterrupted(new Date(clock.ms).toISOString()))
    }
    const indexer = indexerOn(db, true, clock)
    await indexer.start()
    await indexer.idle()
    expect(await statusOf(db, 'B3', 'F1')).toEqual({ status: 'failed', failure: 'indexing stopped before it ended 3 times', passages: 0 })
    expect(await statusOf(db, 'B3', 'F2')).toEqual({ status: 'failed', failure: 'the text has no passage to index (only headings or blank lines)', passages: 0 })
    await indexer.close()
  })
})
