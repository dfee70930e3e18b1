import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

describe('migration 15: agent runs and their trace', () => {
  test('an existing database gains the tables; a deleted conversation takes its runs and trace with it', () => {
    const db = seededDatabase({ before: 15 })
    expect(migrate(db).applied[0]).toBe('0015_agent_runs')
    db.exec(`
      INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq)
        VALUES ('C', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1);
      INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, created_at) VALUES ('R', 'C', 'B', 'help', 'pending', '${at}');
      INSERT INTO agent_trace (id, conversation_id, run_id, kind, detail, created_at) VALUES ('T', 'C', 'R', 'run', '{}', '${at}');
    `)
    expect(db.query("SELECT id FROM agent_runs WHERE status = 'pending'").all()).toEqual([{ id: 'R' }])
    // The pending runs a start looks for are found by the partial index, not by reading every run.
    const plan = db.query("EXPLAIN QUERY PLAN SELECT DISTINCT conversation_id FROM agent_runs WHERE status = 'pending'").all() as { detail: string }[]
    expect(plan.map((row) => row.detail).join(' ')).toContain('agent_runs_pending')
    db.exec("DELETE FROM conversations WHERE id = 'C'")
    expect(db.query('SELECT count(*) AS n FROM agent_runs').get()).toEqual({ n: 0 })
    expect(db.query('SELECT count(*) AS n FROM agent_trace').get()).toEqual({ n: 0 })
  })
})
