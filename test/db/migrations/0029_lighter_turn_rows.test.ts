import { afterEach, describe, expect, test } from 'bun:test'
import { readStore } from '../../../server/conversations/read-store.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { stepStore } from '../../../server/flow-insights/step-store.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'
const until = '2026-01-02T00:00:00.000Z'

function databaseBefore29() {
  const db = seededDatabase({ before: 29 })
  for (const [id, seq] of [['C1', 1], ['C2', 2]] as const) {
    db.exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq)
        VALUES ('${id}', 'B', 'P', 'web', 'bot', '${at}', '${at}', ${seq})`)
  }
  const step = db.query('INSERT INTO flow_steps (id, conversation_id, flow_id, flow_version, from_state, way, to_state, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  step.run('S1', 'C1', 'F', 1, null, 'start', 'hello', at)
  step.run('S2', 'C1', 'F', 1, 'hello', 'next', 'bye', at)
  step.run('S3', 'C2', 'F', 1, null, 'start', 'hello', at)
  step.run('S4', 'C2', 'F', 1, 'hello', 'handoff', null, at)
  const mark = db.query('INSERT INTO conversation_reads (conversation_id, reader, up_to, at) VALUES (?, ?, ?, ?)')
  mark.run('C1', 'team', 'M2', at)
  mark.run('C1', 'visitor', 'M1', at)
  mark.run('C2', 'visitor', 'M3', at)
  return db
}

describe('migration 29: lighter rows for a chat turn', () => {
  test('an upgraded database keeps every step, counted as before, keyed by conversation number; a deleted conversation still takes its steps', () => {
    const db = databaseBefore29()
    expect(migrate(db).applied[0]).toBe('0029_lighter_turn_rows')
    const store = stepStore(db)
    expect(store.counts('F', 1, at, until)).toEqual([
      { from_state: null, way: 'start', to_state: 'hello', times: 2, conversations: 2 },
      { from_state: 'hello', way: 'handoff', to_state: null, times: 1, conversations: 1 },
      { from_state: 'hello', way: 'next', to_state: 'bye', times: 1, conversations: 1 },
    ])
    expect(db.query('SELECT conversation_seq AS seq, way FROM flow_steps ORDER BY rowid').all()).toEqual([
      { seq: 1, way: 'start' }, { seq: 1, way: 'next' }, { seq: 2, way: 'start' }, { seq: 2, way: 'handoff' },
    ])
    store.insert({ conversation_id: 'C2', flow_id: 'F', flow_version: 1, from_state: 'hello', way: 'next', to_state: 'bye', at })
    expect(store.conversationsPerState('F', 1, at, until)).toEqual([{ state: 'bye', conversations: 2 }, { state: 'hello', conversations: 2 }])
    const plan = db.query('EXPLAIN QUERY PLAN DELETE FROM flow_steps WHERE conversation_seq = 1').all() as { detail: string }[]
    expect(plan.map((row) => row.detail).join(' ')).toContain('flow_steps_by_conversation')
    db.exec("DELETE FROM conversations WHERE id = 'C1'")
    expect(db.query('SELECT DISTINCT conversation_seq AS seq FROM flow_steps').all()).toEqual([{ seq: 2 }])
  })

  test("the team's read marks move onto their conversations' rows, the visitor's stay, and both read back as before", () => {
    const db = databaseBefore29()
    migrate(db)
    expect(db.query("SELECT id, team_read_up_to, team_read_at FROM conversations ORDER BY id").all()).toEqual([
      { id: 'C1', team_read_up_to: 'M2', team_read_at: at },
      { id: 'C2', team_read_up_to: null, team_read_at: null },
    ])
    expect(db.query('SELECT conversation_id, reader FROM conversation_reads ORDER BY conversation_id').all()).toEqual([
      { conversation_id: 'C1', reader: 'visitor' },
      { conversation_id: 'C2', reader: 'visitor' },
    ])
    const reads = readStore(db)
    expect(reads.of('C1')).toEqual({ visitor: { up_to: 'M1', at }, team: { up_to: 'M2', at } })
    expect(reads.of('C2')).toEqual({ visitor: { up_to: 'M3', at }, team: null })
    // A mark only moves forward, on the row as in the table.
    const later = '2026-01-01T00:00:01.000Z'
    reads.advance('C1', 'team', { up_to: 'M1', at: later })
    reads.advance('C2', 'team', { up_to: 'M4', at: later })
    reads.advance('C2', 'visitor', { up_to: 'M2', at: later })
    expect(readStore(db).of('C1')).toEqual({ visitor: { up_to: 'M1', at }, team: { up_to: 'M2', at } })
    expect(readStore(db).of('C2')).toEqual({ visitor: { up_to: 'M3', at }, team: { up_to: 'M4', at: later } })
  })
})
