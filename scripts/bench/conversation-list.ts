#!/usr/bin/env bun
/**
 * npm run bench:list: listing a chatbot's conversations, newest activity first (20 per page),
 * on 10,000 and 100,000 conversations, unfiltered and as an agent's inbox (status handoff, a
 * tenth of them). Measured in the same run on two files: the list index of Parley before
 * migration 10 (chatbot, last activity), which every chat turn rewrote, and the index of now
 * (chatbot, status), sorted when read. Prints the median milliseconds per call of each.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { conversationStore } from '../../server/conversations/conversation-store.ts'
import { migrate } from '../../server/db/migrate.ts'
import { migrations } from '../../server/db/migrations/index.ts'
import { openDatabase } from '../../server/db/open-database.ts'
import { newId } from '../../server/support/new-id.ts'

const SIZES = (process.env.BENCH_CONVERSATIONS ?? '10000,100000').split(',').map(Number)
const CALLS = 30
const page = { limit: 20, offset: 0 }
const filters = { all: {}, inbox: { status: 'handoff' as const } }

function measure(layout: 'before' | 'now', size: number): Record<keyof typeof filters, number> {
  const file = join(tmpdir(), `parley-bench-list-${layout}-${process.pid}.db`)
  const db = openDatabase(file)
  migrate(db, layout === 'before' ? migrations.filter((m) => m.id < 10) : migrations)
  const at = new Date().toISOString()
  db.exec(`INSERT INTO workspaces VALUES ('W', 'w', '${at}'); INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}');
           INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('P', 'B', '${at}')`)
  const store = conversationStore(db)
  let seed = 1
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
  db.transaction(() => {
    for (let i = 0; i < size; i++) {
      const last = new Date(Date.parse('2026-01-01') + Math.floor(random() * 3e10)).toISOString()
      store.insert({
        id: newId(), chatbot_id: 'B', contact_id: 'P', channel: 'web', integration_id: null, flow_id: null, flow_version: null,
        status: i % 10 === 0 ? 'handoff' : 'bot', state: '{"at":"listen","status":"bot","variables":{}}', created_at: at, updated_at: null, last_message_at: last,
      })
    }
  })()
  const result = {} as Record<keyof typeof filters, number>
  for (const [name, filter] of Object.entries(filters) as [keyof typeof filters, (typeof filters)[keyof typeof filters]][]) {
    const times: number[] = []
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now()
      store.list('B', filter, page)
      times.push(performance.now() - started)
    }
    result[name] = times.sort((a, b) => a - b)[Math.floor(CALLS / 2)] as number
  }
  db.close()
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  return result
}

console.log(`bench:list ${CALLS} calls per case, 20 conversations per page, median ms per call`)
for (const size of SIZES) {
  const before = measure('before', size)
  const now = measure('now', size)
  for (const name of Object.keys(filters) as (keyof typeof filters)[]) {
    console.log(
      `  ${String(size).padStart(7)} conversations, ${name === 'all' ? 'unfiltered  ' : 'handoff inbox'}: ` +
        `indexed by last activity ${before[name].toFixed(2)} ms, by status ${now[name].toFixed(2)} ms (ratio ${(now[name] / before[name]).toFixed(2)})`,
    )
  }
}
