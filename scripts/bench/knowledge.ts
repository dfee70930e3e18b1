#!/usr/bin/env bun
/**
 * npm run bench:knowledge: how well and how fast a chatbot's knowledge answers (issue 29).
 *
 * Indexes the project's own docs/*.md as text sources (through the knowledge service and its
 * background indexer, on SQLite) and asks the questions of knowledge-questions.ts, written
 * from them. Prints, for full-text search (FTS5 BM25):
 *   recall@5  the share of questions with a passage of an answering section among the first 5
 *   MRR       the mean of 1/rank of the first such passage (0 when none in the first 10)
 * on the docs alone, and again with the docs among BENCH_PASSAGES passages (default 50,000:
 * filler drawn from the docs' own words, so common words stay common), and query latency
 * p50/p99 on both, measured in alternating rounds in one run: the ratio large/small is what
 * the size costs, whatever the machine's noise does to both.
 * MET when recall@5 >= 0.8 and MRR >= 0.6 on the docs alone, and p99 <= 50 ms with the many passages.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../server/db/migrate.ts'
import { openDatabase } from '../../server/db/open-database.ts'
import { sqliteUnits } from '../../server/db/sqlite-units.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { knowledgeIndexer } from '../../server/knowledge/indexer.ts'
import { knowledgeService } from '../../server/knowledge/service.ts'
import { sqliteStores } from '../../server/stores.ts'
import { createLogger } from '../../server/support/logger.ts'
import { systemClock } from '../../server/support/clock.ts'
import { KNOWLEDGE_QUESTIONS } from './knowledge-questions.ts'

const PASSAGES = Number(process.env.BENCH_PASSAGES ?? 50_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const TARGETS = { recall: 0.8, mrr: 0.6, p99Ms: 50 }
const docsDir = join(import.meta.dir, '../../docs')
const docs = readdirSync(docsDir).filter((name) => name.endsWith('.md')).sort()
const dir = mkdtempSync(join(tmpdir(), 'parley-bench-knowledge-'))

async function knowledgeBase(name: string) {
  const db = openDatabase(join(dir, `${name}.db`))
  migrate(db)
  const at = new Date().toISOString()
  db.exec(`INSERT INTO workspaces VALUES ('W', 'w', '${at}'); INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}')`)
  const batch = writeBatcher(db, (error) => {
    throw error
  })
  const stores = sqliteStores(db)
  const units = sqliteUnits(batch, stores)
  const indexer = knowledgeIndexer({ stores, units, now: systemClock, logger: createLogger('warn'), soleWriter: true })
  const service = knowledgeService({ stores, units, now: systemClock, queued: indexer.wake })
  for (const file of docs) await service.create('W', 'B', { type: 'text', title: file, text: readFileSync(join(docsDir, file), 'utf8') })
  await indexer.start()
  await indexer.idle()
  return { db, batch, stores, units, indexer, service }
}

type Base = Awaited<ReturnType<typeof knowledgeBase>>

/** Filler sources of paragraphs drawn from the docs' words, at their frequencies, written straight to the store. */
async function addFiller(base: Base, passages: number) {
  const words = docs.flatMap((file) => readFileSync(join(docsDir, file), 'utf8').toLowerCase().match(/[a-z]{2,}/g) ?? [])
  let seed = 42
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
  const paragraph = () => {
    let text = ''
    while (text.length < 900) text += `${words[Math.floor(random() * words.length)]}${random() < 0.08 ? '. ' : ' '}`
    return `${text.trim()}.`
  }
  const perSource = 500
  const at = new Date().toISOString()
  for (let made = 0, n = 0; made < passages; made += perSource, n++) {
    const content = Array.from({ length: Math.min(perSource, passages - made) }, (_, i) => `${i % 10 === 0 ? `## Part ${i}\n\n` : ''}${paragraph()}`).join('\n\n')
    await base.units.unit((tx) =>
      tx.knowledge.insert({ id: `FILL${String(n).padStart(6, '0')}`, chatbot_id: 'B', type: 'text', title: `filler ${n}`, content, size_bytes: content.length, status: 'queued', failure: null, passages: 0, created_at: at, updated_at: at, indexed_at: null }),
    )
  }
  const started = performance.now()
  base.indexer.wake()
  await base.indexer.idle()
  return performance.now() - started
}

async function quality(base: Base) {
  let found = 0
  let reciprocal = 0
  const missed: string[] = []
  for (const { question, answers } of KNOWLEDGE_QUESTIONS) {
    const { items } = await base.service.search('W', 'B', { query: question, limit: 10 })
    const rank = items.findIndex((hit) => answers.includes(`${hit.title}#${hit.anchor}`))
    if (rank >= 0 && rank < 5) found++
    else missed.push(`${question} (${rank < 0 ? 'not in 10' : `rank ${rank + 1}`}; first: ${items[0] ? `${items[0].title}#${items[0].anchor}` : 'nothing'})`)
    if (rank >= 0) reciprocal += 1 / (rank + 1)
  }
  return { recall: found / KNOWLEDGE_QUESTIONS.length, mrr: reciprocal / KNOWLEDGE_QUESTIONS.length, missed }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

function checkAnswersExist(base: Base) {
  const anchors = new Set(base.db.query<{ key: string }, []>("SELECT s.title || '#' || p.anchor AS key FROM knowledge_passages p JOIN knowledge_sources s ON s.id = p.source_id").all().map((row) => row.key))
  const unknown = KNOWLEDGE_QUESTIONS.flatMap((q) => q.answers).filter((answer) => !anchors.has(answer))
  if (unknown.length > 0) throw new Error(`the question set names sections docs/ does not have: ${unknown.join(', ')}`)
}

const small = await knowledgeBase('docs')
checkAnswersExist(small)
const large = await knowledgeBase('large')
const docsPassages = small.db.query<{ n: number }, []>('SELECT count(*) AS n FROM knowledge_passages').get()?.n ?? 0
const fillerMs = await addFiller(large, Math.max(0, PASSAGES - docsPassages))
const largePassages = large.db.query<{ n: number }, []>('SELECT count(*) AS n FROM knowledge_passages').get()?.n ?? 0

const alone = await quality(small)
const among = await quality(large)
const times = { small: [] as number[], large: [] as number[] }
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)
  for (const { question } of KNOWLEDGE_QUESTIONS) {
    for (const which of order) {
      const base = which === 'small' ? small : large
      const started = performance.now()
      await base.service.search('W', 'B', { query: question, limit: 5 })
      times[which].push(performance.now() - started)
    }
  }
}

const fmt = (n: number) => n.toFixed(2)
console.log(`bench:knowledge: ${docs.length} docs, ${KNOWLEDGE_QUESTIONS.length} questions, full text (SQLite FTS5 BM25)`)
console.log(`  docs alone (${docsPassages} passages):          recall@5 ${fmt(alone.recall)}  MRR ${fmt(alone.mrr)}`)
console.log(`  docs among ${largePassages} passages:         recall@5 ${fmt(among.recall)}  MRR ${fmt(among.mrr)}`)
console.log(`  indexing: ${largePassages - docsPassages} filler passages in ${(fillerMs / 1000).toFixed(1)} s (${Math.round(((largePassages - docsPassages) / fillerMs) * 1000)} passages/s)`)
const p = (which: 'small' | 'large', q: number) => percentile(times[which], q)
console.log(`  query latency, ${ROUNDS} rounds alternating: ${docsPassages} passages p50 ${fmt(p('small', 50))} ms p99 ${fmt(p('small', 99))} ms; ${largePassages} passages p50 ${fmt(p('large', 50))} ms p99 ${fmt(p('large', 99))} ms`)
console.log(`  ratio (many passages / docs alone): p50 ${fmt(p('large', 50) / p('small', 50))}x, p99 ${fmt(p('large', 99) / p('small', 99))}x`)
if (process.env.BENCH_VERBOSE) for (const miss of alone.missed) console.log(`  missed: ${miss}`)
const met = alone.recall >= TARGETS.recall && alone.mrr >= TARGETS.mrr && p('large', 99) <= TARGETS.p99Ms
console.log(`  targets: recall@5 >= ${TARGETS.recall}, MRR >= ${TARGETS.mrr} (docs alone), p99 <= ${TARGETS.p99Ms} ms with many passages: ${met ? 'MET' : 'NOT MET'}`)

for (const base of [small, large]) {
  await base.indexer.close()
  base.batch.flush()
  base.db.close()
}
rmSync(dir, { recursive: true, force: true })
