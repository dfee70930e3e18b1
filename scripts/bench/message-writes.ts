#!/usr/bin/env bun
/**
 * npm run bench:writes: the SQLite side of chat turns on long-running conversations. Each
 * turn stores a visitor message (with its client id) and a bot answer and updates the
 * conversation, 300 turns per commit as the group commit does under load, spread over
 * 1,000 conversations. Measured in the same run on two files: the message indexes keyed by
 * the 26-character conversation id (Parley before migration 8, the baseline) and the real
 * stores and indexes of today. Prints µs per turn and the ratio.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monotonicFactory } from 'ulid'
import type { Database } from 'bun:sqlite'
import { conversationStore } from '../../server/conversations/conversation-store.ts'
import { messageStore } from '../../server/conversations/message-store.ts'
import type { Message } from '../../server/conversations/model.ts'
import { migrate } from '../../server/db/migrate.ts'
import { migrations } from '../../server/db/migrations/index.ts'
import { openDatabase } from '../../server/db/open-database.ts'

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1000)
const TURNS = Number(process.env.BENCH_TURNS ?? 100_000)
const PER_COMMIT = 300
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const newId = monotonicFactory()

interface Writer {
  saveTurn(id: string, state: string, at: string): void
  insert(message: Message): void
}

/** The statements of Parley's stores before migration 8, on a database migrated to 7. */
function textKeyed(db: Database): Writer {
  migrate(db, migrations.filter((m) => m.id < 8))
  const insert = db.query(
    `INSERT INTO messages (id, conversation_id, role, client_id, author, content, created_at)
     VALUES ($id, $conversation_id, $role, $client_id, $author, $content, $created_at)`,
  )
  const save = db.query('UPDATE conversations SET state = coalesce(?, state), status = ?, updated_at = ?, last_message_at = ? WHERE id = ?')
  return {
    saveTurn: (id, state, at) => void save.run(state, 'bot', at, at, id),
    insert: (m) => void insert.run({ ...m, client_id: m.client_id ?? null, author: null, content: JSON.stringify(m.content) }),
  }
}

function compact(db: Database): Writer {
  migrate(db)
  const conversations = conversationStore(db)
  const messages = messageStore(db)
  return { saveTurn: (id, state, at) => conversations.saveTurn(id, state, null, at, at), insert: messages.insert }
}

function run(name: string, layout: (db: Database) => Writer): number {
  const file = join(tmpdir(), `parley-bench-writes-${name}-${process.pid}.db`)
  const db = openDatabase(file)
  const writer = layout(db)
  const at = new Date().toISOString()
  db.exec(`INSERT INTO workspaces VALUES ('W', 'w', '${at}'); INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}')`)
  const ids = Array.from({ length: CONVERSATIONS }, () => newId())
  const contact = db.query("INSERT INTO contacts (id, chatbot_id, created_at) VALUES (?, 'B', ?)")
  const conversation = db.query("INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES (?, 'B', ?, 'web', 'bot', ?, ?)")
  db.transaction(() => {
    for (const id of ids) {
      contact.run(id, at)
      conversation.run(id, id, at, at)
    }
  })()
  if (name === 'compact') db.exec('UPDATE conversations SET seq = rowid')
  let n = 0
  const started = performance.now()
  for (let done = 0; done < TURNS; done += PER_COMMIT) {
    db.exec('BEGIN IMMEDIATE')
    for (let i = 0; i < PER_COMMIT; i++, n++) {
      const id = ids[n % CONVERSATIONS] as string
      const now = new Date().toISOString()
      writer.insert({ id: newId(), conversation_id: id, role: 'visitor', client_id: `c${n}`, content: { kind: 'text', text: `hello ${n}` }, created_at: now })
      writer.insert({ id: newId(), conversation_id: id, role: 'bot', content: { kind: 'text', text: `You said: hello ${n}` }, created_at: now })
      writer.saveTurn(id, JSON.stringify({ state: 'answer', status: 'bot', vars: { last: `hello ${n}` } }), now)
    }
    db.exec('COMMIT')
  }
  const usPerTurn = ((performance.now() - started) * 1000) / n
  db.close()
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  return usPerTurn
}

console.log(`bench:writes ${TURNS} turns over ${CONVERSATIONS} conversations, ${PER_COMMIT} per commit, ${ROUNDS} rounds, alternating`)
const results: Record<'text' | 'compact', number[]> = { text: [], compact: [] }
for (let round = 1; round <= ROUNDS; round++) {
  results.text.push(run('text', textKeyed))
  results.compact.push(run('compact', compact))
  console.log(`  round ${round}: text-keyed ${results.text.at(-1)!.toFixed(1)} µs/turn, compact ${results.compact.at(-1)!.toFixed(1)} µs/turn`)
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const before = median(results.text)
const after = median(results.compact)
console.log(`indexes keyed by conversation id (before migration 8): ${before.toFixed(1)} µs per turn`)
console.log(`Parley's stores and indexes now (migrations 8-10):    ${after.toFixed(1)} µs per turn`)
console.log(`ratio now/before: ${(after / before).toFixed(2)} (lower is better)`)
