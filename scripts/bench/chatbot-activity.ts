#!/usr/bin/env bun
/**
 * npm run bench:activity: a chatbot's overview, the tokens of its agent runs per
 * day over the last 30 days, on a chatbot with a year or two of runs (20,000 and 200,000, evenly
 * spread over 730 days, so about 4% fall in the window). Measured in the same run on the same
 * file: before migration 20 (the runs reached by agent_runs_by_chatbot, every run of the
 * chatbot read) and after it (agent_runs_finished_by_chatbot, only the window's). Prints the
 * median milliseconds per call of each and their ratio. Then what the index costs the writes:
 * 2,000 runs recorded pending and then finished, each its own transaction (the worst case: the
 * autopilot's writes share group commits), on two files with the same 20,000 runs behind
 * them, without and with the index.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ActivityStore, TokensOfDay } from '../../server/chatbots/activity-store.ts'
import { sqliteActivityStore } from '../../server/chatbots/sqlite-activity-store.ts'
import { migrate } from '../../server/db/migrate.ts'
import { migrations } from '../../server/db/migrations/index.ts'
import { openDatabase } from '../../server/db/open-database.ts'

const SIZES = (process.env.BENCH_RUNS ?? '20000,200000').split(',').map(Number)
const CALLS = 30
const DAY_MS = 24 * 3600 * 1000
const NOW = Date.parse('2026-11-23T12:00:00.000Z')
const SINCE = new Date(NOW - 29 * DAY_MS).toISOString().slice(0, 10)

function median(call: () => unknown): number {
  const times: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now()
    call()
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[Math.floor(CALLS / 2)] as number
}

const WRITES = 2000

function seed(file: string, runs: number, layout: 'before' | 'now') {
  const db = openDatabase(file)
  migrate(db, layout === 'before' ? migrations.filter((m) => m.id < 20) : migrations)
  const at = new Date(NOW - 730 * DAY_MS).toISOString()
  db.exec(`INSERT INTO workspaces VALUES ('W', 'w', '${at}'); INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}');
           INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('P', 'B', '${at}')`)
  const conversation = db.query("INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES (?, 'B', 'P', 'web', 'bot', ?, ?)")
  const run = db.query(
    `INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, model_calls, prompt_tokens, completion_tokens, total_tokens, created_at, finished_at)
     VALUES (?, ?, 'B', 'help', 'done', 1, 600, 150, 750, ?, ?)`,
  )
  db.transaction(() => {
    for (let i = 0; i < runs; i++) {
      const finished = new Date(NOW - 730 * DAY_MS + Math.floor((i * 730 * DAY_MS) / runs)).toISOString()
      // Five runs per conversation, as a short chat with the agent would leave.
      const conversationId = `C${String(Math.floor(i / 5)).padStart(9, '0')}`
      if (i % 5 === 0) conversation.run(conversationId, finished, finished)
      run.run(`R${String(i).padStart(9, '0')}`, conversationId, finished, finished)
    }
  })()
  return db
}

/** Milliseconds to record WRITES runs pending and finish them, one transaction each. */
function writes(layout: 'before' | 'now'): number {
  const file = join(tmpdir(), `parley-bench-activity-writes-${layout}-${process.pid}.db`)
  const db = seed(file, 20_000, layout)
  const insert = db.query("INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, created_at) VALUES (?, 'C000000000', 'B', 'help', 'pending', ?)")
  const finish = db.query("UPDATE agent_runs SET status = 'done', total_tokens = 750, finished_at = ? WHERE id = ? AND status = 'pending'")
  const started = performance.now()
  for (let i = 0; i < WRITES; i++) {
    const at = new Date(NOW + i * 1000).toISOString()
    db.transaction(() => insert.run(`N${String(i).padStart(9, '0')}`, at))()
    db.transaction(() => finish.run(at, `N${String(i).padStart(9, '0')}`))()
  }
  const elapsed = performance.now() - started
  db.close()
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  return elapsed
}

function measure(runs: number): { before: number; after: number; rows: number } {
  const file = join(tmpdir(), `parley-bench-activity-${process.pid}.db`)
  const db = seed(file, runs, 'before')
  // The SQLite side answers with a promise already settled: Bun.peek reads it in the same tick, so the timing is the statement's.
  const tokensOf = (store: ActivityStore) => Bun.peek(store.agentTokensPerDay('B', SINCE)) as TokensOfDay[]
  const store = sqliteActivityStore(db)
  const rows = tokensOf(store).length
  const answer = JSON.stringify(tokensOf(store))
  const before = median(() => tokensOf(store))
  migrate(db)
  const indexed = sqliteActivityStore(db)
  if (JSON.stringify(tokensOf(indexed)) !== answer) throw new Error('the index changed the answer')
  const after = median(() => tokensOf(indexed))
  db.close()
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  return { before, after, rows }
}

console.log(`bench:activity ${CALLS} calls per case, tokens per day over 30 days, median ms per call`)
for (const size of SIZES) {
  const { before, after, rows } = measure(size)
  console.log(
    `  ${String(size).padStart(7)} runs over 730 days (${rows} days answered): every run of the chatbot ${before.toFixed(2)} ms, ` +
      `indexed by finished_at ${after.toFixed(2)} ms (ratio ${(after / before).toFixed(3)})`,
  )
}

// Alternated, twice each, so a busy moment of the shared machine does not fall on one layout only.
const [before1, now1, now2, before2] = [writes('before'), writes('now'), writes('now'), writes('before')]
const [writesBefore, writesNow] = [Math.min(before1, before2), Math.min(now1, now2)]
console.log(
  `  ${WRITES} runs recorded and finished, one transaction each (best of two): without the index ${writesBefore.toFixed(0)} ms, ` +
    `with it ${writesNow.toFixed(0)} ms (ratio ${(writesNow / writesBefore).toFixed(2)})`,
)
