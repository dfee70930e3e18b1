#!/usr/bin/env bun
/**
 * npm run bench:instructions -- http|ws [COUNT]
 * CPU instructions per request (bench:http's GET) or per chat turn (bench:ws's echo flow),
 * counted by `valgrind --tool=callgrind` in Parley's server process and in the bare baseline's,
 * all threads included. Unlike the wall-clock benches these counts do not depend on what else
 * the machine is doing (within a few per cent: the JIT's tiers still depend on timing), so a
 * before/after of one change can be told on a busy machine. Both servers are warmed up first;
 * the counters are zeroed, COUNT requests or turns run (8 at a time, one visitor each for ws),
 * and the counters are dumped. The ratio bare/parley is what bench:http and bench:ws would
 * print on a machine where the server's CPU is the limit. Slow: valgrind runs the servers
 * about 50 times slower (a few minutes in all).
 */
import { spawn, spawnSync } from 'bun'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publishEchoBot } from './publish-echo-bot.ts'
import { readUntil } from './read-until.ts'
import type { DevApi } from './start-parley.ts'

const root = join(import.meta.dir, '../..')
const [which = 'http', countArg] = process.argv.slice(2)
if (which !== 'http' && which !== 'ws') throw new Error('usage: instructions.ts http|ws [COUNT]')
const COUNT = Number(countArg ?? (which === 'http' ? 2000 : 1000))
const PARALLEL = 8
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? Math.min(COUNT, 300))
const dir = mkdtempSync(join(tmpdir(), 'parley-instructions-'))

interface Valgrinded {
  pid: number
  port: number
  match: RegExpExecArray
  kill(): Promise<void>
}

async function underCallgrind(name: string, command: string[], env: Record<string, string>, ready: RegExp): Promise<Valgrinded> {
  const proc = spawn(['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(dir, `${name}.%p`)}`, ...command], {
    cwd: root,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'ignore',
  })
  // Whatever ends this script (an error included) ends the servers under valgrind too.
  process.on('exit', () => proc.kill('SIGKILL'))
  const match = await readUntil(proc.stdout, ready)
  return {
    pid: proc.pid,
    port: Number(match[match.length - 1]),
    match,
    async kill() {
      proc.kill('SIGKILL')
      await proc.exited
    },
  }
}

/** Zeroes the process's counters, runs `work`, dumps them: the instructions `work` cost the server. */
async function counted(server: Valgrinded, work: () => Promise<void>): Promise<number> {
  control(server.pid, '--zero')
  await work()
  const before = new Set(readdirSync(dir))
  control(server.pid, '--dump')
  const dumps = readdirSync(dir).filter((file) => !before.has(file) && file.includes(`.${server.pid}`))
  let total = 0
  for (const file of dumps) {
    const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))
    total += Number(totals?.[1] ?? 0)
  }
  if (total === 0) throw new Error(`no callgrind dump for ${server.pid}`)
  return total
}

function control(pid: number, option: string): void {
  const result = spawnSync(['callgrind_control', option, String(pid)], { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`callgrind_control ${option}: ${result.stderr.toString()}`)
}

async function inParallel(count: number, one: (index: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < count) await one(next++)
    }),
  )
}

async function requests(url: string, headers: Record<string, string>, count: number): Promise<void> {
  await inParallel(count, async () => {
    // Under valgrind a request can take seconds: no client-side time limit.
    const response = await fetch(url, { headers, timeout: false } as RequestInit)
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
  })
}

function nextMessage(socket: WebSocket, accept: (data: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (!accept(String(event.data))) return
      socket.removeEventListener('message', listener)
      resolve()
    }
    socket.addEventListener('message', listener)
  })
}

/** PARALLEL visitors, each sending its share of `count` messages one after the other, each waiting for its answer. */
async function chat(url: string, parley: boolean, count: number): Promise<void> {
  const visitors = await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      const socket = new WebSocket(url)
      await new Promise((resolve, reject) => {
        socket.onopen = resolve
        socket.onerror = reject
      })
      if (parley) {
        const welcome = nextMessage(socket, (data) => data.includes('"welcome"'))
        socket.send(JSON.stringify({ type: 'hello', v: 1 }))
        await welcome
        const greeted = nextMessage(socket, (data) => data.includes('"role":"bot"'))
        socket.send(JSON.stringify({ type: 'start' }))
        await greeted
      }
      return socket
    }),
  )
  let sent = 0
  await Promise.all(
    visitors.map(async (socket, index) => {
      while (sent < count) {
        const clientId = `v${index}_${sent++}_${Math.random().toString(36).slice(2, 8)}`
        const answer = nextMessage(socket, (data) => !parley || data.includes('"role":"bot"'))
        socket.send(parley ? JSON.stringify({ type: 'message', client_id: clientId, text: `hello ${clientId}` }) : JSON.stringify({ client_id: clientId, text: `hello ${clientId}` }))
        await answer
      }
    }),
  )
  for (const socket of visitors) socket.close()
}

const bun = process.execPath
const parleyEnv = { PARLEY_DATA_DIR: join(dir, 'data'), PORT: '0', HOST: '127.0.0.1', PARLEY_RATE_LIMIT: '10000000', PARLEY_SOCKET_RATE_LIMIT: '0', LOG_LEVEL: which === 'http' ? 'info' : 'warn' }
console.log(`bench:instructions ${which}: ${COUNT} ${which === 'http' ? 'requests' : 'turns'} after ${WARM_UP} to warm up, ${PARALLEL} at a time (valgrind: a few minutes)`)
const parley = await underCallgrind('parley', [bun, 'server/main.ts', 'serve'], parleyEnv, /(pk_[0-9A-Za-z]{40})[\s\S]*?listening on port (\d+)/)
const keyMatch = parley.match[1] as string
const api: DevApi = async (method, path, body) => {
  const response = await fetch(`http://127.0.0.1:${parley.port}/api/dev/v1${path}`, {
    timeout: false,
    method,
    headers: { authorization: `Bearer ${keyMatch}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, any>
}

let parleyCount: number
let bareCount: number
if (which === 'http') {
  const bot = await api('POST', '/chatbots', { name: 'Bench bot' })
  const path = `/api/dev/v1/chatbots/${bot.id}`
  const bare = await underCallgrind('bare', [bun, 'scripts/bench/bare-server.ts', join(dir, 'data', 'parley.db')], {}, /listening (\d+)/)
  const headers = { authorization: `Bearer ${keyMatch}` }
  await requests(`http://127.0.0.1:${parley.port}${path}`, headers, WARM_UP)
  await requests(`http://127.0.0.1:${bare.port}${path}`, {}, WARM_UP)
  parleyCount = await counted(parley, () => requests(`http://127.0.0.1:${parley.port}${path}`, headers, COUNT))
  bareCount = await counted(bare, () => requests(`http://127.0.0.1:${bare.port}${path}`, {}, COUNT))
  await bare.kill()
} else {
  const { socketUrl } = await publishEchoBot(api, String(parley.port), { chatbot: 'Bench bot', site: 'Bench site' })
  const bare = await underCallgrind('bare', [bun, 'scripts/bench/bare-ws-server.ts', join(dir, 'bare.db')], {}, /listening (\d+)/)
  const bareUrl = `ws://127.0.0.1:${bare.port}/`
  await chat(socketUrl, true, WARM_UP)
  await chat(bareUrl, false, WARM_UP)
  parleyCount = await counted(parley, () => chat(socketUrl, true, COUNT))
  bareCount = await counted(bare, () => chat(bareUrl, false, COUNT))
  await bare.kill()
}
await parley.kill()
const unit = which === 'http' ? 'request' : 'turn'
const per = (total: number) => Math.round(total / COUNT).toLocaleString('en')
console.log(`bare:   ${per(bareCount)} instructions per ${unit}`)
console.log(`parley: ${per(parleyCount)} instructions per ${unit}`)
console.log(`ratio bare/parley: ${(bareCount / parleyCount).toFixed(2)} (what the ${which === 'http' ? 'bench:http' : 'bench:ws chat'} ratio would be if only the server's CPU counted)`)
rmSync(dir, { recursive: true, force: true })
