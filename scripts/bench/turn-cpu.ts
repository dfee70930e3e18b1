#!/usr/bin/env bun
/**
 * bun scripts/bench/turn-cpu.ts [TREE] [ROUNDS]
 * A widget chat turn's CPU in one process, without the network: the app of TREE (default this
 * one; another commit's worktree with node_modules and dist/ in place) as `testApp` builds it,
 * its real widget socket handlers driven with stand-in sockets, 1,000 visitors chatting with
 * the echo flow of bench:ws, 100 turns per turn of the event loop (one write batch each).
 * After a warm-up round, each of ROUNDS (default 5) rounds of 20,000 turns prints the whole
 * process's CPU time per turn (process.cpuUsage: the garbage collector's threads included);
 * the median is printed last. Run two trees alternately to compare them: without the load
 * generator and the sockets on the same cores, it moves less than bench:profile does.
 * Later rounds cost more (the conversations grow).
 */
import { join, resolve } from 'node:path'
import { publishEchoBot } from './publish-echo-bot.ts'

const tree = resolve(process.argv[2] ?? join(import.meta.dir, '../..'))
const ROUNDS = Number(process.argv[3] ?? 5)
const VISITORS = 1000
const PER_TICK = 100
const TURNS_PER_ROUND = 20_000

const { testApp } = await import(join(tree, 'test/support/test-app.ts'))
const app = testApp({ PARLEY_SOCKET_RATE_LIMIT: '0', PARLEY_RATE_LIMIT: '0' })
const api = async (method: string, path: string, body?: unknown) => {
  const answer = await app.call(method, `/api/dev/v1${path}`, { body })
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`)
  return answer.body as Record<string, any>
}
const { widgetKey } = await publishEchoBot(api, '0', { chatbot: 'bench', site: 'site' })

const handlers = app.socket.handlers
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve))
let frames = 0
const sockets: unknown[] = []
for (let i = 0; i < VISITORS; i++) {
  let data: unknown
  const server = { upgrade: (_request: Request, options: { data: unknown }) => ((data = options.data), true), requestIP: () => ({ address: '127.0.0.1' }) }
  await app.socket.upgrade(new Request(`http://parley.test/widget/v1/socket?key=${widgetKey}`, { headers: { origin: 'https://shop.test' } }), server as never)
  const socket = { data, send: () => ++frames, cork: (write: () => void) => write(), close: () => {}, getBufferedAmount: () => 0 }
  handlers.open!(socket as never)
  handlers.message!(socket as never, JSON.stringify({ type: 'hello', v: 1 }))
  handlers.message!(socket as never, JSON.stringify({ type: 'start' }))
  sockets.push(socket)
  if (i % 100 === 99) await nextTick()
}
await new Promise((resolve) => setTimeout(resolve, 50))

let sequence = 0
async function round(): Promise<void> {
  for (let done = 0; done < TURNS_PER_ROUND; done += PER_TICK) {
    for (let i = 0; i < PER_TICK; i++) {
      const clientId = `c${sequence++}`
      handlers.message!(sockets[(done + i) % VISITORS] as never, JSON.stringify({ type: 'message', client_id: clientId, text: `hello ${clientId}` }))
    }
    await nextTick()
  }
  await nextTick()
}

await round()
const perTurn: number[] = []
for (let r = 0; r < ROUNDS; r++) {
  const framesBefore = frames
  const before = process.cpuUsage()
  await round()
  const used = process.cpuUsage(before)
  // Each turn sends the visitor's message, the answer and the read mark.
  if (frames - framesBefore < TURNS_PER_ROUND * 3) throw new Error(`${frames - framesBefore} frames for ${TURNS_PER_ROUND} turns`)
  perTurn.push((used.user + used.system) / TURNS_PER_ROUND)
  console.log(`round ${r + 1}: ${perTurn.at(-1)!.toFixed(1)} µs of CPU per turn`)
}
const median = [...perTurn].sort((a, b) => a - b)[Math.floor(perTurn.length / 2)] as number
console.log(`turn-cpu ${tree}: median ${median.toFixed(1)} µs of CPU per turn (${perTurn.map((us) => us.toFixed(1)).join(', ')})`)
await app.close()
process.exit(0)
