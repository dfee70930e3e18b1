import { expect, test } from 'bun:test'
import type { Passage } from '../../server/knowledge/passages.ts'
import { COMMON_FLOOR, distinctiveTerms } from '../../server/knowledge/distinctive-terms.ts'
import { searchTerms } from '../../server/knowledge/search-terms.ts'
import type { SourceRecord } from '../../server/knowledge/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = (minute: number) => `2026-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`
const source = (id: string, chatbot: string, minute: number, extra: Partial<SourceRecord> = {}): SourceRecord => ({
  id,
  chatbot_id: chatbot,
  type: 'text',
  title: `source ${id}`,
  content: `text of ${id}`,
  size_bytes: 10,
  status: 'queued',
  failure: null,
  passages: 0,
  created_at: at(minute),
  updated_at: at(minute),
  indexed_at: null,
  ...extra,
})
const passage = (text: string, heading = ''): Passage => ({ heading, anchor: heading.toLowerCase().replace(/\s/g, '-'), text })

onBothDatabases('the knowledge store', (database) => {
  test('keeps sources per chatbot: read whole, listed newest first, counted, removed; chatbots known per workspace', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at(0)}'), ('W2', 'w2', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at(0)}'), ('C', 'W2', 'c', '${at(0)}')`)
    expect(await stores.knowledge.chatbotExists('W', 'B')).toBe(true)
    expect(await stores.knowledge.chatbotExists('W2', 'B')).toBe(false)
    await units.unit(async (tx) => {
      await tx.knowledge.insert(source('S1', 'B', 1, { size_bytes: 100 }))
      await tx.knowledge.insert(source('S2', 'B', 2, { type: 'qa', title: 'How long do refunds take?', content: 'Five days.', size_bytes: 35 }))
      await tx.knowledge.insert(source('S3', 'C', 3))
    })
    expect(await stores.knowledge.get('B', 'S2')).toEqual(source('S2', 'B', 2, { type: 'qa', title: 'How long do refunds take?', content: 'Five days.', size_bytes: 35 }))
    expect(await stores.knowledge.get('C', 'S2')).toBeUndefined()
    expect(await stores.knowledge.totals('B')).toEqual({ sources: 2, bytes: 135 })
    const page = await stores.knowledge.list('B', { limit: 1, offset: 0 })
    expect(page.total).toBe(2)
    expect(page.items.map((row) => row.id)).toEqual(['S2'])
    expect(page.items[0]).not.toHaveProperty('content')
    expect((await stores.knowledge.list('B', { limit: 5, offset: 1 })).items.map((row) => row.id)).toEqual(['S1'])
    expect(await units.unit((tx) => tx.knowledge.remove('C', 'S1'))).toBe(false)
    expect(await units.unit((tx) => tx.knowledge.remove('B', 'S1'))).toBe(true)
    expect(await stores.knowledge.totals('B')).toEqual({ sources: 1, bytes: 35 })
  })

  test('an indexer claims the source waiting longest, once; its passages are written only while its claim holds', async () => {
    const { exec, stores, units } = database()
    await exec('DELETE FROM knowledge_sources') // claims take from every chatbot
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('WI', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('BI', 'WI', 'b', '${at(0)}')`)
    await units.unit(async (tx) => {
      await tx.knowledge.insert(source('I2', 'BI', 12))
      await tx.knowledge.insert(source('I1', 'BI', 11))
    })
    const first = await units.unit((tx) => tx.knowledge.claimNext(at(20), at(21), 'claim-a'))
    expect(first).toEqual({ id: 'I1', chatbot_id: 'BI', type: 'text', title: 'source I1', content: 'text of I1', attempts: 1 })
    expect((await stores.knowledge.get('BI', 'I1'))?.status).toBe('indexing')
    const second = await units.unit((tx) => tx.knowledge.claimNext(at(20), at(21), 'claim-b'))
    expect(second?.id).toBe('I2')
    // Both are held by live leases: nothing to take.
    expect(await units.unit((tx) => tx.knowledge.claimNext(at(20), at(21), 'claim-c'))).toBeUndefined()

    expect(await units.unit((tx) => tx.knowledge.finish('I1', 'claim-x', [passage('wrong claim')], at(22)))).toBe(false)
    expect(await units.unit((tx) => tx.knowledge.finish('I1', 'claim-a', [passage('Refunds take five days.'), passage('Shipping is free.', 'Shipping')], at(22)))).toBe(true)
    expect(await stores.knowledge.get('BI', 'I1')).toMatchObject({ status: 'ready', passages: 2, indexed_at: at(22), failure: null })
    expect((await stores.knowledge.search('BI', ['refund'], 5)).map((hit) => hit.text)).toEqual(['Refunds take five days.'])

    // A refresh while I2 is being indexed: the old claim's work is not stored.
    await units.unit((tx) => tx.knowledge.requeue('BI', 'I2', at(23)))
    expect(await units.unit((tx) => tx.knowledge.finish('I2', 'claim-b', [passage('stale')], at(24)))).toBe(false)
    expect(await units.unit((tx) => tx.knowledge.fail('I2', 'claim-b', 'stale', at(24)))).toBe(false)
    expect(await stores.knowledge.get('BI', 'I2')).toMatchObject({ status: 'queued', passages: 0 })
    const again = await units.unit((tx) => tx.knowledge.claimNext(at(25), at(26), 'claim-d'))
    expect(again).toMatchObject({ id: 'I2', attempts: 1 })
    expect(await units.unit((tx) => tx.knowledge.fail('I2', 'claim-d', 'the text has no passages', at(26)))).toBe(true)
    expect(await stores.knowledge.get('BI', 'I2')).toMatchObject({ status: 'failed', failure: 'the text has no passages' })
  })

  test('a source left indexing is taken again once its lease ended, or at once by requeueInterrupted; attempts are counted', async () => {
    const { exec, stores, units } = database()
    await exec('DELETE FROM knowledge_sources')
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('WL', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('BL', 'WL', 'b', '${at(0)}')`)
    await units.unit((tx) => tx.knowledge.insert(source('L1', 'BL', 1)))
    await units.unit((tx) => tx.knowledge.claimNext(at(30), at(31), 'crashed'))
    expect(await stores.knowledge.backlog(at(30))).toEqual({ claimable: 0, indexing: 1 })
    expect(await units.unit((tx) => tx.knowledge.claimNext(at(30), at(40), 'early'))).toBeUndefined()
    expect(await stores.knowledge.backlog(at(32))).toEqual({ claimable: 1, indexing: 1 })
    expect(await units.unit((tx) => tx.knowledge.claimNext(at(32), at(40), 'late'))).toMatchObject({ id: 'L1', attempts: 2 })
    expect(await units.unit((tx) => tx.knowledge.requeueInterrupted(at(33)))).toBe(1)
    expect((await stores.knowledge.get('BL', 'L1'))?.status).toBe('queued')
    expect(await units.unit((tx) => tx.knowledge.finish('L1', 'late', [passage('x')], at(34)))).toBe(false)
    expect(await units.unit((tx) => tx.knowledge.claimNext(at(34), at(50), 'restarted'))).toMatchObject({ id: 'L1', attempts: 3 })
  })

  test('search: best first by full-text rank, stems and diacritics matched, headings weigh more, one chatbot only, deleted sources gone', async () => {
    const { exec, stores, units } = database()
    await exec('DELETE FROM knowledge_sources')
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('WS', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('BS', 'WS', 'b', '${at(0)}'), ('BT', 'WS', 't', '${at(0)}')`)
    await units.unit(async (tx) => {
      await tx.knowledge.insert(source('S-help', 'BS', 1, { title: 'Help center' }))
      await tx.knowledge.insert(source('S-other', 'BT', 2, { title: 'Other bot' }))
    })
    const helpCenter = [
      passage('Refunds are paid back to the card you used. Refund requests take five working days; a refund of a gift card goes to its balance.', 'Refunds'),
      passage('Our café in Lisbon opens at eight. The menu changes every season and the coffee is roasted on site.', 'Visiting us'),
      passage('Orders ship within two days. We ship worldwide; tracking numbers arrive by e-mail, and a refund is possible before shipping.', 'Shipping'),
      passage('Passwords are reset from the sign-in page: choose "forgot password" and follow the e-mail.', 'Accounts › Passwords'),
    ]
    await units.unit((tx) => tx.knowledge.claimNext(at(3), at(9), 'c1'))
    await units.unit((tx) => tx.knowledge.finish('S-help', 'c1', helpCenter, at(4)))
    await units.unit((tx) => tx.knowledge.claimNext(at(5), at(9), 'c2'))
    await units.unit((tx) => tx.knowledge.finish('S-other', 'c2', [passage('Refund refund refund: the other chatbot.', 'Refunds')], at(6)))

    const texts = async (query: string, chatbot = 'BS', limit = 5) => (await stores.knowledge.search(chatbot, searchTerms(query), limit)).map((hit) => hit.heading)
    expect(await texts('How long does a refund take?')).toEqual(['Refunds', 'Shipping'])
    expect(await texts('refunded')).toEqual(['Refunds', 'Shipping'])
    expect(await texts('cafe')).toEqual(['Visiting us'])
    expect(await texts('I forgot my password')).toEqual(['Accounts › Passwords'])
    expect(await texts('shipping')).toEqual(['Shipping'])
    expect(await texts('refund', 'BS', 1)).toEqual(['Refunds'])
    expect(await texts('refund', 'BT')).toEqual(['Refunds'])
    expect(await texts('nothing matches this')).toEqual([])
    const [best] = await stores.knowledge.search('BS', ['refund'], 1)
    expect(best).toMatchObject({ source_id: 'S-help', title: 'Help center', heading: 'Refunds', anchor: 'refunds', ordinal: 0 })
    expect(best?.score).toBeGreaterThan(0)
    expect(await stores.knowledge.search('BS', [], 5)).toEqual([])

    await units.unit((tx) => tx.knowledge.remove('BS', 'S-help'))
    expect(await texts('refund')).toEqual([])
    expect(await texts('refund', 'BT')).toEqual(['Refunds'])
  })

  test('words more than half the chatbot\'s passages hold are left out of its search; counts are the chatbot\'s own, bounded', async () => {
    const { exec, stores, units } = database()
    await exec('DELETE FROM knowledge_sources')
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('WC', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('BC', 'WC', 'b', '${at(0)}'), ('BD', 'WC', 'd', '${at(0)}')`)
    await units.unit(async (tx) => {
      await tx.knowledge.insert(source('C-many', 'BC', 1, { title: 'Guide' }))
      await tx.knowledge.insert(source('D-other', 'BD', 2, { title: 'Other' }))
    })
    const size = COMMON_FLOOR * 3
    // Every passage holds "parley", two thirds "server", one in fifty "refund"; the other chatbot's passages all hold "refund".
    const many = Array.from({ length: size }, (_, i) => passage(`Parley ${i % 3 === 0 ? '' : 'server'} ${i % 50 === 0 ? 'refund' : ''} note ${i}.`))
    await units.unit((tx) => tx.knowledge.claimNext(at(3), at(9), 'c1'))
    await units.unit((tx) => tx.knowledge.finish('C-many', 'c1', many, at(4)))
    await units.unit((tx) => tx.knowledge.claimNext(at(5), at(9), 'c2'))
    await units.unit((tx) => tx.knowledge.finish('D-other', 'c2', Array.from({ length: 20 }, () => passage('refund refund')), at(6)))

    expect(await stores.knowledge.passageCount('BC')).toBe(size)
    expect(await stores.knowledge.matchCounts('BC', ['parley', 'server', 'refund', 'absent'], size + 1)).toEqual([size, (size * 2) / 3, size / 50, 0])
    expect(await stores.knowledge.matchCounts('BC', ['parley', 'refund'], 10)).toEqual([10, 6])
    expect(await stores.knowledge.matchCounts('nobody', ['parley'], 10)).toEqual([0])
    expect(await distinctiveTerms(stores.knowledge, 'BC', ['parley', 'server', 'refund', 'absent'])).toEqual(['refund'])
    // Every word common: the one fewest passages hold.
    expect(await distinctiveTerms(stores.knowledge, 'BC', ['parley', 'server'])).toEqual(['server'])
    expect(await distinctiveTerms(stores.knowledge, 'BC', ['absent'])).toEqual([])
    // A small knowledge base is searched by every word it holds, however common.
    expect(await distinctiveTerms(stores.knowledge, 'BD', ['refund', 'parley'])).toEqual(['refund'])
    const hits = await stores.knowledge.search('BC', await distinctiveTerms(stores.knowledge, 'BC', searchTerms('Parley server refund')), 10)
    expect(hits).toHaveLength(size / 50)
    expect(hits.every((hit) => hit.text.includes('refund') && hit.source_id === 'C-many')).toBe(true)
  })

  test('two nodes claiming at once never take the same source (PostgreSQL)', async () => {
    const { exec, units, otherNode } = database()
    const other = otherNode()
    if (!other) return // SQLite: one writer process per file
    await exec('DELETE FROM knowledge_sources')
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('WN', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('BN', 'WN', 'b', '${at(0)}')`)
    await units.unit(async (tx) => {
      for (let i = 0; i < 6; i++) await tx.knowledge.insert(source(`N${i}`, 'BN', 40 + i))
    })
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? units : other.units).unit((tx) => tx.knowledge.claimNext(at(50), at(59), `node-${i}`))),
    )
    const taken = claims.flatMap((claim) => (claim ? [claim.id] : []))
    // A claimer that lost a race may come back empty-handed; what is left is taken next, none twice.
    for (let claim = await units.unit((tx) => tx.knowledge.claimNext(at(50), at(59), 'late')); claim; claim = await units.unit((tx) => tx.knowledge.claimNext(at(50), at(59), 'late'))) {
      taken.push(claim.id)
    }
    expect(taken.sort()).toEqual(['N0', 'N1', 'N2', 'N3', 'N4', 'N5'])
  })
})
