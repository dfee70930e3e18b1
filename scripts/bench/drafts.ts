#!/usr/bin/env bun
/**
 * bun scripts/bench/drafts.ts
 * The bot's answers streaming to widget tabs: VISITORS visitors with two tabs each, every
 * conversation receiving FRAGMENTS fragments of about 4 characters at RATE a second (a fast
 * model), announced on the event bus as the LLM runner announces them. Compared in the same
 * run, in alternating rounds: every fragment relayed as its own frame (window 0) and the
 * coalescing window of the web channel (50 ms). Printed: the server's CPU time per 1,000
 * fragments (the serving thread's work), frames and bytes per tab, and that every tab ends
 * with exactly the text written.
 *
 * The server runs in a child process (a Parley app on a real SQLite file and real sockets),
 * so the clients' work is not counted as the server's.
 */
import { spawn } from 'bun'
import { join } from 'node:path'

const VISITORS = Number(process.env.BENCH_VISITORS ?? 200)
const FRAGMENTS = Number(process.env.BENCH_FRAGMENTS ?? 250)
const RATE = Number(process.env.BENCH_RATE ?? 50)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const WINDOWS = [0, 50]

const fragment = (i: number) => ['The ', 'answ', 'er i', 's 42', ', an', 'd 😀 ', 'more '][i % 7] as string

if (process.argv[2] === '--serve') await serve(Number(process.argv[3]))
else await main()

async function serve(windowMs: number): Promise<void> {
  const { liveServer } = await import('../../test/support/live-server.ts')
  const { setUpWebChat } = await import('../../test/support/web-chat.ts')
  const server = liveServer({ PARLEY_SOCKET_RATE_LIMIT: '0' }, { draftFlushMs: windowMs })
  const chat = await setUpWebChat(server, { flow: { version: 1, start: 'a', states: { a: { say: [{ text: 'Hi' }], on: [{ to: 'a' }] } } } })
  console.log(JSON.stringify({ port: server.server.port, key: chat.widgetKey }))
  const ids = JSON.parse(await Bun.stdin.text()) as string[]
  const refs = ids.map((id) => server.services.conversations.get(id)!)
  const answerIds = refs.map((_, index) => `01ANSWER${String(index).padStart(18, '0')}`)
  const cpu = process.cpuUsage()
  for (const [index, ref] of refs.entries()) server.events.emit('conversation.draft', { conversation: ref, message_id: answerIds[index]!, phase: 'started' })
  const started = performance.now()
  for (let i = 0; i < FRAGMENTS; i++) {
    for (const [index, ref] of refs.entries()) server.events.emit('conversation.draft', { conversation: ref, message_id: answerIds[index]!, phase: 'delta', text: fragment(i) })
    const next = started + ((i + 1) * 1000) / RATE
    await Bun.sleep(Math.max(0, next - performance.now()))
  }
  // The last window's text goes out before the answer is announced, as a model's pause would allow.
  await Bun.sleep(windowMs + 20)
  const used = process.cpuUsage(cpu)
  console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }))
  await Bun.sleep(500)
  await server.stop()
  process.exit(0)
}

async function main(): Promise<void> {
  const expected = Array.from({ length: FRAGMENTS }, (_, i) => fragment(i)).join('')
  const results = new Map<number, { cpuMs: number[]; frames: number[]; bytes: number[] }>()
  for (let round = 0; round < ROUNDS; round++) {
    for (const windowMs of WINDOWS) {
      const child = spawn([process.execPath, import.meta.path, '--serve', String(windowMs)], { cwd: join(import.meta.dir, '../..'), stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' })
      const lines = lineReader(child.stdout)
      const { port, key } = JSON.parse(await lines()) as { port: number; key: string }
      const url = `ws://127.0.0.1:${port}/widget/v1/socket?key=${key}`
      const tabs: Tab[] = []
      const conversations: string[] = []
      for (let v = 0; v < VISITORS; v++) {
        const first = await Tab.open(url)
        const welcome = (await first.until((frame) => frame.type === 'welcome')) as { visitor_token: string }
        first.send({ type: 'start' })
        const greeting = (await first.until((frame) => frame.type === 'message')) as { message: { conversation_id: string } }
        conversations.push(greeting.message.conversation_id)
        const second = await Tab.open(url, welcome.visitor_token)
        await second.until((frame) => frame.type === 'welcome')
        tabs.push(first, second)
      }
      for (const tab of tabs) tab.reset()
      child.stdin.write(JSON.stringify(conversations))
      child.stdin.end()
      const { cpuMs } = JSON.parse(await lines()) as { cpuMs: number }
      await Bun.sleep(300)
      const wrong = tabs.filter((tab) => tab.text !== expected).length
      if (wrong > 0) throw new Error(`${wrong} tabs do not show the written text (window ${windowMs} ms)`)
      const entry = results.get(windowMs) ?? { cpuMs: [], frames: [], bytes: [] }
      entry.cpuMs.push((cpuMs / (FRAGMENTS * VISITORS)) * 1000)
      entry.frames.push(tabs.reduce((sum, tab) => sum + tab.frames, 0) / tabs.length)
      entry.bytes.push(tabs.reduce((sum, tab) => sum + tab.bytes, 0) / tabs.length)
      results.set(windowMs, entry)
      for (const tab of tabs) tab.close()
      await child.exited
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
  console.log(`${VISITORS} visitors x 2 tabs, ${FRAGMENTS} fragments each at ${RATE}/s, ${ROUNDS} rounds (medians)`)
  const base = results.get(0)!
  for (const windowMs of WINDOWS) {
    const entry = results.get(windowMs)!
    const cpu = median(entry.cpuMs)
    console.log(
      `window ${String(windowMs).padStart(2)} ms: server CPU ${cpu.toFixed(1)} ms per 1,000 fragments (x${(cpu / median(base.cpuMs)).toFixed(2)}), ` +
        `${median(entry.frames).toFixed(0)} frames and ${(median(entry.bytes) / 1024).toFixed(1)} KiB per tab, every tab shows the whole text`,
    )
  }
}

function lineReader(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  return async (): Promise<string> => {
    for (;;) {
      const newline = buffered.indexOf('\n')
      if (newline >= 0) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        return line
      }
      const { value, done } = await reader.read()
      if (done) throw new Error(`the server ended: ${buffered}`)
      buffered += decoder.decode(value, { stream: true })
    }
  }
}

/** One widget tab: counts the draft frames and bytes it gets and rebuilds the draft's text from them. */
class Tab {
  frames = 0
  bytes = 0
  text = ''
  private waiting: { test: (frame: any) => boolean; resolve: (frame: any) => void } | null = null
  private constructor(private readonly socket: WebSocket) {
    socket.onmessage = (event) => {
      const raw = String(event.data)
      const frame = JSON.parse(raw)
      if (frame.type.startsWith('draft')) {
        this.frames++
        this.bytes += Buffer.byteLength(raw)
        if (frame.type === 'draft') this.text = frame.text
        else if (frame.type === 'draft_delta' && frame.at === this.text.length) this.text += frame.text
      }
      if (this.waiting?.test(frame)) {
        this.waiting.resolve(frame)
        this.waiting = null
      }
    }
  }

  static async open(url: string, visitorToken?: string): Promise<Tab> {
    const socket = new WebSocket(url)
    await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }))
    const tab = new Tab(socket)
    tab.send({ type: 'hello', v: 1, ...(visitorToken ? { visitor_token: visitorToken } : {}) })
    return tab
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message))
  }

  until(test: (frame: any) => boolean): Promise<unknown> {
    return new Promise((resolve) => (this.waiting = { test, resolve }))
  }

  reset(): void {
    this.frames = 0
    this.bytes = 0
    this.text = ''
  }

  close(): void {
    this.socket.close()
  }
}
