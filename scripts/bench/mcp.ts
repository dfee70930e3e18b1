#!/usr/bin/env bun
/**
 * npm run bench:mcp: one tool call through Parley (POST .../tools/echo/call: auth, the
 * allow list, the argument check, the connection manager, the SDK client) against the same
 * SDK client calling the same local MCP server directly, in alternating rounds of one run.
 * Reports Parley's added latency (p50, p99; target p50 <= 2 ms), the calls/s ratio
 * (target >= 0.7), and the memory each idle connected integration costs with 1,000 of them.
 */
import { spawn } from 'bun'
import { startServer } from './start-server.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { createLogger } from '../../server/support/logger.ts'

const root = join(import.meta.dir, '../..')
const CALLS = Number(process.env.BENCH_CALLS ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 16)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const INTEGRATIONS = Number(process.env.BENCH_INTEGRATIONS ?? 1000)


const tools = await startServer([process.execPath, 'scripts/bench/mcp-tool-server.ts'], {}, /listening (\d+)/)
// The tool server is a child process: it must not outlive a failed run.
process.on('exit', () => tools.proc.kill())
const serverUrl = `http://127.0.0.1:${tools.port}/mcp`

// Parley's database: a key, a chatbot and its mcp integration, made before the server starts.
const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-'))
const seed = openDatabase(join(dataDir, 'parley.db'))
migrate(seed)
const seedApp = createApp({ db: seed, config: loadConfig({ PARLEY_DATA_DIR: dataDir, PARLEY_OUTBOUND_ALLOW: '127.0.0.1' }), logger: createLogger('silent') })
const { key, workspaceId } = await seedApp.services.workspaces.createKey({ name: 'bench' })
const bot = seedApp.services.chatbots.create(workspaceId, { name: 'Bench bot' })
const integration = await seedApp.services.integrations.mcp.create(workspaceId, bot.id, { name: 'bench', url: serverUrl })
await seedApp.close()
closeDatabase(seed)

const parley = await startServer(
  [process.execPath, 'server/main.ts', 'serve'],
  { PARLEY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', PARLEY_RATE_LIMIT: '10000000', LOG_LEVEL: 'info', PARLEY_OUTBOUND_ALLOW: '127.0.0.1' },
  /"msg":"listening".*?:(\d+)"/,
)
const callUrl = `http://127.0.0.1:${parley.port}/api/dev/v1/chatbots/${bot.id}/integrations/mcp/${integration.id}/tools/echo/call`
const body = JSON.stringify({ arguments: { text: 'ping' } })

const direct = new Client({ name: 'bench-direct', version: '1.0.0' }, { capabilities: {} })
await direct.connect(new StreamableHTTPClientTransport(new URL(serverUrl)))

type Call = () => Promise<void>
const viaDirect: Call = async () => {
  const result = await direct.callTool({ name: 'echo', arguments: { text: 'ping' } })
  if (result.isError) throw new Error('the direct call failed')
}
const viaParley: Call = async () => {
  const response = await fetch(callUrl, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
  if (response.status !== 200) throw new Error(`Parley answered ${response.status}: ${await response.text()}`)
  await response.arrayBuffer()
}

async function latencies(call: Call, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await call()
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)
}

async function throughput(call: Call): Promise<number> {
  const until = performance.now() + SECONDS * 1000
  let done = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await call()
        done++
      }
    }),
  )
  return done / SECONDS
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

console.log(`bench:mcp  tools/call echo  ${CALLS} sequential calls and ${CONCURRENCY} concurrent for ${SECONDS} s per round, ${ROUNDS} rounds, alternating`)
await latencies(viaDirect, 200) // warm-up, not counted
await latencies(viaParley, 200)
const rounds = { direct: [] as { p50: number; p99: number; rps: number }[], parley: [] as { p50: number; p99: number; rps: number }[] }
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, call] of [['direct', viaDirect], ['parley', viaParley]] as const) {
    const sorted = await latencies(call, CALLS)
    const rps = await throughput(call)
    const result = { p50: at(sorted, 0.5), p99: at(sorted, 0.99), rps }
    rounds[name].push(result)
    console.log(`  round ${round} ${name.padEnd(6)} p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  ${result.rps.toFixed(0)} calls/s`)
  }
}
const summary = (name: keyof typeof rounds) => ({
  p50: median(rounds[name].map((r) => r.p50)),
  p99: median(rounds[name].map((r) => r.p99)),
  rps: median(rounds[name].map((r) => r.rps)),
})
const d = summary('direct')
const p = summary('parley')
const added50 = p.p50 - d.p50
const ratio = p.rps / d.rps
console.log(`direct SDK client: p50 ${d.p50.toFixed(2)} ms, p99 ${d.p99.toFixed(2)} ms, ${d.rps.toFixed(0)} calls/s`)
console.log(`through Parley:    p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms, ${p.rps.toFixed(0)} calls/s`)
console.log(`added latency: p50 ${added50.toFixed(2)} ms (target <= 2 ms) ${added50 <= 2 ? 'MET' : 'NOT MET'}, p99 ${(p.p99 - d.p99).toFixed(2)} ms`)
console.log(`calls/s ratio parley/direct: ${ratio.toFixed(2)} (target >= 0.70) ${ratio >= 0.7 ? 'MET' : 'NOT MET'}`)

await direct.close()
parley.proc.kill('SIGTERM')
await parley.proc.exited

// Memory: its own process, a fresh heap.
// Each idle streamable-HTTP connection holds a GET stream open, and Bun's fetch runs at most
// 256 requests at once by default: 1,000 connections need the limit raised.
const memory = spawn([process.execPath, 'scripts/bench/mcp-memory.ts', serverUrl, String(INTEGRATIONS)], {
  cwd: root,
  stdout: 'pipe',
  stderr: 'inherit',
  env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(INTEGRATIONS * 2 + 64) },
})
const measured = JSON.parse((await new Response(memory.stdout).text()).trim().split('\n').at(-1) as string)
const perRss = (measured.after.rss - measured.before.rss) / measured.count / 1024
const perHeap = (measured.after.heapUsed - measured.before.heapUsed) / measured.count / 1024
console.log(
  `memory: ${measured.count} integrations, ${measured.held} connections held idle: ${perRss.toFixed(1)} KiB RSS and ${perHeap.toFixed(1)} KiB heap per connected integration ` +
    `(RSS ${(measured.before.rss / 2 ** 20).toFixed(0)} -> ${(measured.after.rss / 2 ** 20).toFixed(0)} MiB)`,
)

tools.proc.kill()
await tools.proc.exited
rmSync(dataDir, { recursive: true, force: true })
