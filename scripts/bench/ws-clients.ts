#!/usr/bin/env bun
/**
 * Widget-like WebSocket clients for bench:ws, run as their own process.
 *   idle URL COUNT ORIGIN        opens COUNT sockets, says hello on each, prints "ready",
 *                                 and keeps them open until stdin closes
 *   chat URL COUNT SECONDS MODE [PACE_MS]
 *                                 COUNT visitors each send a message and wait for the answer,
 *                                 for SECONDS (0: until stdin closes),
 *                                 again and again; MODE parley (hello, start, then messages)
 *                                 or bare (plain text echo). With PACE_MS, each visitor waits
 *                                 a random 0.5-1.5 x PACE_MS between messages, like a person
 *                                 typing; without, it sends at once (saturation).
 *                                 Prints "chatting SETUP_MS" once every visitor is connected
 *                                 and started, then {messages, errors, rps, p50, p99}.
 */
export {}

const [mode, url, countArg, arg4, arg5, arg6] = process.argv.slice(2)
if (!mode || !url || !countArg) throw new Error('usage: ws-clients.ts idle|chat URL COUNT ...')
const count = Number(countArg)

function open(target: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(target)
    socket.onopen = () => resolve(socket)
    socket.onerror = () => reject(new Error('connect failed'))
  })
}

function nextMessage(socket: WebSocket, accept: (data: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      const data = JSON.parse(String(event.data)) as Record<string, unknown>
      if (!accept(data)) return
      socket.removeEventListener('message', listener)
      resolve(data)
    }
    socket.addEventListener('message', listener)
  })
}

/** Resolves when the parent closes our stdin: its way to say stop. */
async function stdinClosed(): Promise<void> {
  const stdin = Bun.stdin.stream().getReader()
  while (!(await stdin.read()).done);
}

// A refusal also ends the wait (and is counted), so a misconfigured run reports instead of hanging.
const isBot = (data: Record<string, unknown>) =>
  data.type === 'error' || (data.type === 'message' && (data.message as { role?: string } | undefined)?.role === 'bot')

if (mode === 'idle') {
  const sockets: WebSocket[] = []
  const batch = 200
  for (let i = 0; i < count; i += batch) {
    const opened = await Promise.all(Array.from({ length: Math.min(batch, count - i) }, () => open(url)))
    await Promise.all(
      opened.map((socket) => {
        const welcome = nextMessage(socket, (data) => data.type === 'welcome')
        socket.send(JSON.stringify({ type: 'hello', v: 1 }))
        return welcome
      }),
    )
    sockets.push(...opened)
  }
  console.log(`ready ${sockets.length}`)
  await stdinClosed()
  process.exit(0)
}

if (mode === 'chat') {
  const seconds = Number(arg4 ?? 5)
  const protocol = arg5 ?? 'parley'
  const paceMs = Number(arg6 ?? 0)
  const setupStarted = performance.now()
  const sockets = await Promise.all(Array.from({ length: count }, () => open(url)))
  if (protocol === 'parley') {
    await Promise.all(
      sockets.map(async (socket) => {
        const welcome = nextMessage(socket, (data) => data.type === 'welcome')
        socket.send(JSON.stringify({ type: 'hello', v: 1 }))
        await welcome
        const firstBot = nextMessage(socket, isBot)
        socket.send(JSON.stringify({ type: 'start' }))
        await firstBot
      }),
    )
  }
  console.log(`chatting ${(performance.now() - setupStarted).toFixed(0)}`)
  const latencies: number[] = []
  let errors = 0
  const started = performance.now()
  let deadline = seconds > 0 ? started + seconds * 1000 : Number.POSITIVE_INFINITY
  if (seconds === 0) void stdinClosed().then(() => (deadline = performance.now()))
  let sequence = 0
  await Promise.all(
    sockets.map(async (socket, index) => {
      while (performance.now() < deadline) {
        if (paceMs > 0) await Bun.sleep(paceMs * (0.5 + Math.random()))
        if (performance.now() >= deadline) break
        const sent = performance.now()
        const clientId = `c${index}_${sequence++}`
        if (protocol === 'parley') {
          const answer = nextMessage(socket, isBot)
          socket.send(JSON.stringify({ type: 'message', client_id: clientId, text: `hello ${clientId}` }))
          if ((await answer).type === 'error') errors++
        } else {
          const answer = nextMessage(socket, () => true)
          socket.send(JSON.stringify({ client_id: clientId, text: `hello ${clientId}` }))
          await answer
        }
        latencies.push(performance.now() - sent)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  console.log(JSON.stringify({ messages: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) }))
  for (const socket of sockets) socket.close()
  process.exit(0)
}
