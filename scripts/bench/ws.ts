#!/usr/bin/env bun
/**
 * npm run bench:ws
 *  (a) 10,000 idle widget sockets on one Parley: the server's resident memory per socket.
 *  (b) 1,000 visitors chatting through a published flow (each sends, waits for the bot's
 *      answer, sends again at once) against a bare Bun WebSocket server that stores each
 *      message in SQLite and echoes it, in alternating rounds of the same run: the most
 *      messages per second each can take, and the ratio.
 *  (c) The same 1,000 visitors at a human pace (a message every second or so each): the
 *      round trip a visitor feels, p50/p99, on both servers.
 */
import { spawn } from 'bun'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publishEchoBot } from './publish-echo-bot.ts'
import { readUntil } from './read-until.ts'
import { startParley } from './start-parley.ts'
import { startServer } from './start-server.ts'

const root = join(import.meta.dir, '../..')
const IDLE = Number(process.env.BENCH_IDLE ?? 10_000)
const VISITORS = Number(process.env.BENCH_VISITORS ?? 1000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 1000)

const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-ws-'))

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)

// --- Parley with a published echo flow and a web integration, set up through its API ---
const { proc: parley, port, api } = await startParley(dataDir)
const { socketUrl } = await publishEchoBot(api, port, { chatbot: 'Bench bot', site: 'Bench site' })

// --- (a) idle sockets (BENCH_IDLE=0 skips it) ---
if (IDLE > 0) {
Bun.gc(true)
await Bun.sleep(500)
const before = rssKb(parley.pid)
const idle = spawn([process.execPath, 'scripts/bench/ws-clients.ts', 'idle', socketUrl, String(IDLE)], {
  cwd: root,
  stdin: 'pipe',
  stdout: 'pipe',
  stderr: 'inherit',
})
await readUntil(idle.stdout, /ready (\d+)/)
await Bun.sleep(1000)
const after = rssKb(parley.pid)
const perSocket = ((after - before) * 1024) / IDLE
console.log(`bench:ws (a) ${IDLE} idle widget sockets: server RSS ${(before / 1024).toFixed(1)} MB -> ${(after / 1024).toFixed(1)} MB`)
console.log(`  ${(perSocket / 1024).toFixed(2)} KB per idle socket (target <= 3 KB) ${perSocket <= 3 * 1024 ? 'MET' : 'NOT MET'}`)
idle.stdin.end()
await idle.exited
await Bun.sleep(500)
}

// --- (b) chatting visitors against the bare baseline ---
const bare = await startServer([process.execPath, 'scripts/bench/bare-ws-server.ts', join(dataDir, 'bare.db')], {}, /listening (\d+)/)
const barePort = bare.port

interface Result {
  messages: number
  errors?: number
  rps: number
  p50: number
  p99: number
}
async function chat(url: string, protocol: 'parley' | 'bare', paceMs = 0): Promise<Result> {
  const proc = spawn([process.execPath, 'scripts/bench/ws-clients.ts', 'chat', url, String(VISITORS), String(SECONDS), protocol, String(paceMs)], {
    cwd: root,
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const text = await new Response(proc.stdout).text()
  await proc.exited
  return JSON.parse(text.trim().split('\n').at(-1) as string) as Result
}

console.log(`bench:ws (b) ${VISITORS} visitors chatting as fast as they can, ${SECONDS} s per round, ${ROUNDS} rounds, alternating`)
const results: Record<'bare' | 'parley', Result[]> = { bare: [], parley: [] }
for (let round = 1; round <= ROUNDS; round++) {
  for (const name of ['bare', 'parley'] as const) {
    const result = await chat(name === 'bare' ? `ws://127.0.0.1:${barePort}/` : socketUrl, name)
    if (result.errors) throw new Error(`${name}: ${result.errors} messages were refused`)
    results[name].push(result)
    console.log(`  round ${round} ${name.padEnd(6)} ${result.rps.toFixed(0).padStart(7)} msg/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms`)
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const summary = (name: 'bare' | 'parley') => ({
  rps: median(results[name].map((r) => r.rps)),
  p50: median(results[name].map((r) => r.p50)),
  p99: median(results[name].map((r) => r.p99)),
})
const b = summary('bare')
const p = summary('parley')
console.log(`bare WebSocket + SQLite echo: ${b.rps.toFixed(0)} msg/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms`)
console.log(`parley through a flow:        ${p.rps.toFixed(0)} msg/s, p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms`)
const ratio = p.rps / b.rps
console.log(`ratio parley/bare: ${ratio.toFixed(2)} (target >= 0.70) ${ratio >= 0.7 ? 'MET' : 'NOT MET'}`)

console.log(`bench:ws (c) ${VISITORS} visitors at a human pace (a message every ${PACE_MS} ms or so each), ${SECONDS} s`)
const pacedBare = await chat(`ws://127.0.0.1:${barePort}/`, 'bare', PACE_MS)
const pacedParley = await chat(socketUrl, 'parley', PACE_MS)
for (const [name, result] of [['bare', pacedBare], ['parley', pacedParley]] as const) {
  console.log(`  ${name.padEnd(6)} ${result.rps.toFixed(0).padStart(5)} msg/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms`)
}
console.log(`parley p99 at a human pace: ${pacedParley.p99.toFixed(1)} ms (target < 50 ms) ${pacedParley.p99 < 50 ? 'MET' : 'NOT MET'}`)

bare.proc.kill()
parley.kill('SIGTERM')
await Promise.all([bare.proc.exited, parley.exited])
rmSync(dataDir, { recursive: true, force: true })
