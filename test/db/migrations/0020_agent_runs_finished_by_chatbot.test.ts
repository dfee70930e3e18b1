import { afterEach, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { activityStore } from '../../../server/chatbots/activity-store.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T10:00:00.000Z`

/** A database as Parley 0019 left it: runs of chatbot B finished on several days, one pending, and a run of another chatbot. */
function databaseBeforeMigration20() {
  const db = seededDatabase({ before: 20, at: day(1) })
  db.exec(`
    INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B2', 'W', 'other', '${day(1)}');
    INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('P2', 'B2', '${day(1)}');
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES
      ('C1', 'B', 'P', 'web', 'bot', '${day(1)}', '${day(1)}'),
      ('C2', 'B2', 'P2', 'web', 'bot', '${day(1)}', '${day(1)}');
    INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, prompt_tokens, completion_tokens, total_tokens, created_at, finished_at) VALUES
      ('R1', 'C1', 'B', 'help', 'done', 10, 5, 15, '${day(2)}', '${day(2)}'),
      ('R2', 'C1', 'B', 'help', 'done', 20, 10, 30, '${day(5)}', '${day(5)}'),
      ('R3', 'C1', 'B', 'help', 'dropped', 1, 0, 1, '${day(5)}', '${day(5)}'),
      ('R4', 'C1', 'B', 'help', 'merged', 7, 3, 10, '${day(9)}', '${day(9)}'),
      ('R5', 'C1', 'B', 'help', 'pending', 0, 0, 0, '${day(9)}', NULL),
      ('R6', 'C2', 'B2', 'help', 'done', 100, 100, 200, '${day(5)}', '${day(5)}');
  `)
  return db
}

function plan(db: Database, sql: string): string {
  // Prepared and finalized here, not cached by db.query: a cached EXPLAIN of an UPDATE stays open and would hold the migration's commit.
  const explain = db.prepare<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
  const details = explain.all().map((row) => row.detail)
  explain.finalize()
  return details.join('\n')
}

// As server/chatbots/activity-store.ts and server/autopilot/run-store.ts ask them.
const ACTIVITY = `SELECT substr(finished_at, 1, 10) AS day, count(*) AS runs, sum(prompt_tokens) AS prompt_tokens
  FROM agent_runs WHERE chatbot_id = 'B' AND status != 'pending' AND finished_at >= '2026-01-03' GROUP BY day`
const RUN_STORE_READS = {
  pendingOfConversation: "SELECT id FROM agent_runs WHERE conversation_id = 'C1' AND status = 'pending' ORDER BY id",
  everyPendingConversation: "SELECT DISTINCT conversation_id FROM agent_runs WHERE status = 'pending'",
  totalsByConversation: `SELECT conversation_id, count(*) AS runs, coalesce(sum(total_tokens), 0) AS total_tokens FROM agent_runs
    WHERE chatbot_id = 'B' AND status != 'pending' GROUP BY conversation_id ORDER BY total_tokens DESC, conversation_id LIMIT 20 OFFSET 0`,
  conversationCount: "SELECT count(DISTINCT conversation_id) AS n FROM agent_runs WHERE chatbot_id = 'B' AND status != 'pending'",
  oneConversation: "SELECT count(*) AS runs FROM agent_runs WHERE chatbot_id = 'B' AND conversation_id = 'C1' AND status != 'pending'",
  dropPending: "UPDATE agent_runs SET status = 'dropped', outcome = 'x', finished_at = 'y' WHERE conversation_id = 'C1' AND status = 'pending'",
}

describe('migration 20: agent runs indexed by chatbot and finish time', () => {
  test("a chatbot's tokens per day read the same after the upgrade: finished runs only, of that chatbot, from the day asked", () => {
    const db = databaseBeforeMigration20()
    const before = activityStore(db).agentTokensPerDay('B', '2026-01-03')
    expect(migrate(db).applied[0]).toBe('0020_agent_runs_finished_by_chatbot')
    const after = activityStore(db).agentTokensPerDay('B', '2026-01-03')
    expect(after).toEqual(before)
    expect(after.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: '2026-01-05', runs: 2, prompt_tokens: 21, completion_tokens: 10, total_tokens: 31 },
      { day: '2026-01-09', runs: 1, prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    ])
    db.close()
  })

  test('the activity query reaches only the days asked, through the new index, where it read every run of the chatbot before', () => {
    const db = databaseBeforeMigration20()
    expect(plan(db, ACTIVITY)).toContain('agent_runs_by_chatbot (chatbot_id=?)')
    migrate(db)
    expect(plan(db, ACTIVITY)).toContain('agent_runs_finished_by_chatbot (chatbot_id=? AND finished_at>?)')
    const indexedColumns = db.query<{ name: string }, []>("SELECT name FROM pragma_index_info('agent_runs_finished_by_chatbot')").all()
    expect(indexedColumns.map((c) => c.name)).toEqual(['chatbot_id', 'finished_at'])
    db.close()
  })

  test("the autopilot's other reads of runs keep their plans (a conversation's totals do not walk the new index row by row)", () => {
    const db = databaseBeforeMigration20()
    const plans = (): Record<string, string> => Object.fromEntries(Object.entries(RUN_STORE_READS).map(([name, sql]) => [name, plan(db, sql)]))
    const before = plans()
    migrate(db)
    expect(plans()).toEqual(before)
    db.close()
  })
})
