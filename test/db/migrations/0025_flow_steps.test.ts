import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { stepStore } from '../../../server/flow-insights/step-store.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

describe('migration 25: the steps conversations took in their flow', () => {
  test('an existing database gains the table; counts are read by version and period through its index; a deleted conversation takes its steps', () => {
    const db = seededDatabase({ before: 25 })
    expect(migrate(db).applied[0]).toBe('0025_flow_steps')
    db.exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq)
        VALUES ('C', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1)`)
    const store = stepStore(db)
    store.insert({ conversation_id: 'C', flow_id: 'F', flow_version: 1, from_state: null, way: 'start', to_state: 'hello', at })
    store.insert({ conversation_id: 'C', flow_id: 'F', flow_version: 1, from_state: 'hello', way: 'handoff', to_state: null, at })
    store.insert({ conversation_id: 'C', flow_id: 'F', flow_version: 2, from_state: null, way: 'start', to_state: 'hello', at })
    expect(store.counts('F', 1, at, '2026-01-02T00:00:00.000Z')).toEqual([
      { from_state: null, way: 'start', to_state: 'hello', times: 1, conversations: 1 },
      { from_state: 'hello', way: 'handoff', to_state: null, times: 1, conversations: 1 },
    ])
    const plan = db.query("EXPLAIN QUERY PLAN SELECT count(*) FROM flow_steps WHERE flow_id = 'F' AND flow_version = 1 AND at >= '' AND at < 'z'").all() as { detail: string }[]
    expect(plan.map((row) => row.detail).join(' ')).toContain('flow_steps_by_version')
    db.exec("DELETE FROM conversations WHERE id = 'C'")
    expect(db.query('SELECT count(*) AS n FROM flow_steps').get()).toEqual({ n: 0 })
  })
})
