#!/usr/bin/env bun
/**
 * npm run bench:http: GET /api/dev/v1/chatbots/{id} on Parley (auth, rate limit, validation,
 * request log) against a bare Bun.serve answering the same row from the same SQLite file.
 * Both run as separate processes, measured in alternating rounds in this one run; the figure
 * that matters is the ratio, since these machines are noisy.
 */
import { spawn } from 'bun'
import { startServer } from './start-server.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { createLogger } from '../../server/support/logger.ts'

const root = join(import.meta.dir, '../..')
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-'))
const dbFile = join(dataDir, 'parley.db')
const seed = openDatabase(dbFile)
migrate(seed)
const app = createApp({ db: seed, config: loadConfig({ PARLEY_DATA_DIR: dataDir }), logger: createLogger('silent') })
const { key, workspaceId } = await app.services.workspaces.createKey({ name: 'bench' })
const bot = app.services.chatbots.create(workspaceId, { name: 'Bench bot' })
closeDatabase(seed)


interface Result {
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
}

async function load(url: string, headers: Record<string, string>): Promise<Result> {
  const proc = spawn([process.execPath, join(root, 'scripts/bench/load.ts'), url, String(CONNECTIONS), String(SECONDS), JSON.stringify(headers)], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const text = await new Response(proc.stdout).text()
  await proc.exited
  return JSON.parse(text) as Result
}

const parley = await startServer(
  [process.execPath, 'server/main.ts', 'serve'],
  { PARLEY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', PARLEY_RATE_LIMIT: '10000000', LOG_LEVEL: 'info' },
  /"msg":"listening".*?:(\d+)"/,
)
const bare = await startServer([process.execPath, 'scripts/bench/bare-server.ts', dbFile], {}, /listening (\d+)/)

const path = `/api/dev/v1/chatbots/${bot.id}`
const targets = {
  bare: { url: `http://127.0.0.1:${bare.port}${path}`, headers: {} },
  parley: { url: `http://127.0.0.1:${parley.port}${path}`, headers: { authorization: `Bearer ${key}` } },
}
const results: Record<keyof typeof targets, Result[]> = { bare: [], parley: [] }

console.log(`bench:http  GET ${path}  ${CONNECTIONS} connections, ${SECONDS} s per round, ${ROUNDS} rounds, alternating`)
await load(targets.bare.url, {}) // warm-up, not counted
await load(targets.parley.url, targets.parley.headers)
for (let round = 1; round <= ROUNDS; round++) {
  for (const name of ['bare', 'parley'] as const) {
    const result = await load(targets[name].url, targets[name].headers)
    if (result.errors > 0) throw new Error(`${name} answered ${result.errors} requests with an error`)
    results[name].push(result)
    console.log(`  round ${round} ${name.padEnd(6)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms`)
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const summary = (name: keyof typeof targets) => ({
  rps: median(results[name].map((r) => r.rps)),
  p50: median(results[name].map((r) => r.p50)),
  p99: median(results[name].map((r) => r.p99)),
})
const b = summary('bare')
const p = summary('parley')
console.log(`bare Bun.serve: ${b.rps.toFixed(0)} req/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms`)
console.log(`parley:         ${p.rps.toFixed(0)} req/s, p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms`)
const ratio = p.rps / b.rps
console.log(`ratio parley/bare: ${ratio.toFixed(2)} (target >= 0.60) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}`)

bare.proc.kill()
parley.proc.kill('SIGTERM')
await Promise.all([bare.proc.exited, parley.proc.exited])
rmSync(dataDir, { recursive: true, force: true })
