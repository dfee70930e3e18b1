import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { deskFeed, type FeedEntry } from '../../server/desk/feed.ts'
import { feedStore } from '../../server/desk/feed-store.ts'
import { migratedDatabase } from '../support/migrated-database.ts'

const nextTurnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

function setUp() {
  const db = migratedDatabase(join(mkdtempSync(join(tmpdir(), 'parley-feed-')), 'parley.db'))
  const batch = writeBatcher(db, () => {})
  const feed = deskFeed({ store: feedStore(db), batch })
  const heard: FeedEntry[] = []
  feed.onEntry((_workspace, entry) => heard.push(entry))
  const say = (workspaceId: string, text: string) =>
    feed.publish(workspaceId, { type: 'timeline', conversation_id: text, event: { kind: 'note', text } } as never)
  const rows = () => db.query<{ workspace_id: string; seq: number }, []>('SELECT workspace_id, seq FROM desk_feed ORDER BY workspace_id, seq').all()
  return { db, batch, feed, heard, say, rows }
}

describe("the desk feed's rows", () => {
  test("a batch's entries of one workspace are one row, and a catch-up from inside a row gets exactly what follows", async () => {
    const { feed, heard, say, rows } = setUp()
    for (const text of ['a', 'b', 'c', 'd', 'e']) say('w1', text)
    say('w2', 'other')
    await nextTurnOfTheLoop()
    for (const text of ['f', 'g', 'h']) say('w1', text)
    await nextTurnOfTheLoop()
    expect(rows()).toEqual([
      { workspace_id: 'w1', seq: 5 },
      { workspace_id: 'w1', seq: 8 },
      { workspace_id: 'w2', seq: 1 },
    ])
    expect(heard.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 1, 6, 7, 8])
    const ids = (since: number) => {
      const caught = feed.catchUp('w1', since)
      return 'entries' in caught ? caught.entries.map((entry) => [entry.seq, (entry as { conversation_id: string }).conversation_id]) : caught
    }
    expect(ids(0)).toEqual([[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd'], [5, 'e'], [6, 'f'], [7, 'g'], [8, 'h']])
    expect(ids(3)).toEqual([[4, 'd'], [5, 'e'], [6, 'f'], [7, 'g'], [8, 'h']])
    expect(ids(5)).toEqual([[6, 'f'], [7, 'g'], [8, 'h']])
    expect(ids(8)).toEqual([])
    expect(ids(9)).toEqual({ reload: true })
    expect(feed.head('w1')).toBe(8)
  })

  test('numbers go on after a restart, from the last entry of the last row', async () => {
    const { db, batch, say } = setUp()
    for (const text of ['a', 'b', 'c']) say('w1', text)
    await nextTurnOfTheLoop()
    const again = deskFeed({ store: feedStore(db), batch })
    expect(again.head('w1')).toBe(3)
    again.publish('w1', { type: 'timeline', conversation_id: 'd', event: {} } as never)
    await nextTurnOfTheLoop()
    const caught = again.catchUp('w1', 2)
    expect('entries' in caught && caught.entries.map((entry) => entry.seq)).toEqual([3, 4])
  })

  test('a rolled-back batch stores none of its entries, and the next batch numbers on from what is stored', async () => {
    const { db, batch, feed, heard, say, rows } = setUp()
    say('w1', 'kept')
    await nextTurnOfTheLoop()
    say('w1', 'lost')
    expect(() => batch.run(() => db.run('INSERT INTO desk_feed (workspace_id, seq, event) VALUES (NULL, 0, 0)'))).toThrow()
    feed.forget()
    await nextTurnOfTheLoop()
    say('w1', 'next')
    await nextTurnOfTheLoop()
    expect(rows().map((row) => row.seq)).toEqual([1, 2])
    expect(heard.map((entry) => (entry as { conversation_id: string }).conversation_id)).toEqual(['kept', 'next'])
  })
})
