#!/usr/bin/env bun
/**
 * npm run bench:profile -- http|ws [SECONDS]
 * Where Parley's serving thread spends its CPU under bench:http's or bench:ws's load: Parley
 * runs with `bun --cpu-prof`, the load of the bench runs against it (after a warm-up), and the
 * profile's samples inside the load's window are summed by module and by function, printed as
 * markdown with the CPU microseconds per request (http) or per chat turn (ws).
 *   http: GET /api/dev/v1/chatbots/{id}, 64 connections, as bench:http (rate limit on, request log on)
 *   ws:   1,000 visitors chatting through the echo flow as fast as they can, as bench:ws (b)
 * The same load then runs on the bench's bare baseline, whose CPU per unit gives a CPU ratio:
 * unlike req/s or msg/s, CPU time does not count the time a thread waits for a core, so it
 * holds on a machine busy with other work.
 * BENCH_PROFILE_KEEP=DIR keeps the .cpuprofile (open it in Chrome's DevTools).
 */
import { spawn } from 'bun'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatSummary, summariseProfile } from './cpu-profile-summary.ts'
import { publishEchoBot } from './publish-echo-bot.ts'
import { readUntil } from './read-until.ts'
import { startParley } from './start-parley.ts'
import { startServer } from './start-server.ts'

const root = join(import.meta.dir, '../..')
const [which = 'http', secondsArg = '5'] = process.argv.slice(2)
if (which !== 'http' && which !== 'ws') throw new Error('usage: profile.ts http|ws [SECONDS]')
const SECONDS = Number(secondsArg)
const VISITORS = Number(process.env.BENCH_VISITORS ?? 1000)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)

const dataDir = mkdtempSync(join(tmpdir(), 'parley-profile-'))
const profileDir = process.env.BENCH_PROFILE_KEEP ?? join(dataDir, 'profile')
process.env.BENCH_PROFILE = profileDir
process.env.BENCH_PROFILE_JSON = '1'
const env: Record<string, string> = which === 'http' ? { PARLEY_RATE_LIMIT: '10000000', LOG_LEVEL: 'info' } : {}
const { proc: parley, port, api, key } = await startParley(join(dataDir, 'data'), env)

/** CPU time so far in microseconds (user + system, from /proc): the serving thread's, or with `all` the whole process's (the garbage collector's and the checkpoint worker's threads included). */
const CLOCK_TICKS_PER_SECOND = 100
function cpuUsOf(pid: number, all = false): number {
  const fields = readFileSync(all ? `/proc/${pid}/stat` : `/proc/${pid}/task/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND
}
const threadCpuUs = (pid: number) => cpuUsOf(pid)
const processCpuUs = (pid: number) => cpuUsOf(pid, true)

/** Runs one load process; the CPU time `server` spent while it measured (after `ready`, when given). */
async function run(server: number, command: string[], ready?: RegExp): Promise<{ result: Record<string, number>; from: number; cpuUs: number; processUs: number }> {
  const proc = spawn(command, { cwd: root, stdout: 'pipe', stderr: 'inherit' })
  let from = Date.now()
  let cpuAtStart = threadCpuUs(server)
  let processAtStart = processCpuUs(server)
  let text = ''
  if (ready) {
    const [stdoutA, stdoutB] = proc.stdout.tee()
    await readUntil(stdoutA, ready)
    from = Date.now()
    cpuAtStart = threadCpuUs(server)
    processAtStart = processCpuUs(server)
    text = await new Response(stdoutB).text()
  } else {
    text = await new Response(proc.stdout).text()
  }
  await proc.exited
  const cpuUs = threadCpuUs(server) - cpuAtStart
  const processUs = processCpuUs(server) - processAtStart
  return { result: JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, number>, from, cpuUs, processUs }
}

/** The same load on the bench's bare baseline, after Parley's: its serving thread's CPU per unit. */
async function bareCpuPerUnit(command: string[], load: (target: string, server: number, seconds: number) => Promise<{ result: Record<string, number>; processUs: number }>, target: (port: number) => string, count: 'requests' | 'messages'): Promise<number> {
  const bare = await startServer(command, {}, /listening (\d+)/)
  try {
    await load(target(bare.port), bare.proc.pid, 2)
    const measured = await load(target(bare.port), bare.proc.pid, SECONDS)
    return measured.processUs / (measured.result[count] as number)
  } finally {
    bare.proc.kill()
    await bare.proc.exited
  }
}

let units: number
let unitName: string
let from: number
let to: number
let cpuUs: number
let processUs: number
let bareUs: number
if (which === 'http') {
  const bot = await api('POST', '/chatbots', { name: 'Profile bot' })
  const path = `/api/dev/v1/chatbots/${bot.id}`
  const load = (url: string, server: number, seconds: number, headers = {}) => run(server, [process.execPath, join(root, 'scripts/bench/load.ts'), url, String(CONNECTIONS), String(seconds), JSON.stringify(headers)])
  const parleyUrl = `http://127.0.0.1:${port}${path}`
  const auth = { authorization: `Bearer ${key}` }
  await load(parleyUrl, parley.pid, 2, auth) // warm-up: the JIT's tiers, the caches
  const measured = await load(parleyUrl, parley.pid, SECONDS, auth)
  from = measured.from
  to = Date.now()
  cpuUs = measured.cpuUs
  processUs = measured.processUs
  units = measured.result.requests as number
  unitName = 'request'
  bareUs = await bareCpuPerUnit([process.execPath, 'scripts/bench/bare-server.ts', join(dataDir, 'data', 'parley.db')], load, (barePort) => `http://127.0.0.1:${barePort}${path}`, 'requests')
} else {
  const { socketUrl } = await publishEchoBot(api, port, { chatbot: 'Profile bot', site: 'Profile site' })
  const chat = (url: string, server: number, seconds: number, mode = 'parley') => run(server, [process.execPath, 'scripts/bench/ws-clients.ts', 'chat', url, String(VISITORS), String(seconds), mode, '0'], /chatting/)
  await chat(socketUrl, parley.pid, 2) // warm-up
  const measured = await chat(socketUrl, parley.pid, SECONDS)
  from = measured.from
  to = Date.now()
  cpuUs = measured.cpuUs
  processUs = measured.processUs
  units = measured.result.messages as number
  unitName = 'turn'
  bareUs = await bareCpuPerUnit([process.execPath, 'scripts/bench/bare-ws-server.ts', join(dataDir, 'bare.db')], (url, server, seconds) => chat(url, server, seconds, 'bare'), (barePort) => `ws://127.0.0.1:${barePort}/`, 'messages')
}

parley.kill('SIGTERM')
await parley.exited
const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))
if (!file) throw new Error(`no profile in ${profileDir}`)
const summary = summariseProfile(join(profileDir, file), root, from, to)
console.log(`bench:profile ${which}: ${SECONDS} s of load, ${units} ${unitName}s (${(units / SECONDS).toFixed(0)}/s)`)
console.log(`serving thread's CPU time (/proc): ${(cpuUs / units).toFixed(1)} µs per ${unitName}; the whole process's ${(processUs / units).toFixed(1)} µs (the garbage collector's and the checkpoint worker's threads included); the bare baseline process's under the same load ${bareUs.toFixed(1)} µs`)
console.log(`CPU ratio bare/parley: ${(bareUs / (processUs / units)).toFixed(2)} (whole processes: the throughput ratio where the servers' CPU is the limit)`)
console.log(formatSummary(summary, units, unitName, cpuUs / units))
if (process.env.BENCH_PROFILE_KEEP) console.log(`profile kept in ${profileDir}; the load's window: ${from} to ${to} (epoch ms)`)
else rmSync(dataDir, { recursive: true, force: true })
