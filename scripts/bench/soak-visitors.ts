#!/usr/bin/env bun
/**
 * The visitors of bench:soak, run as their own process:
 *   soak-visitors.ts URL COUNT PACE_MS RECONNECT_EVERY
 * COUNT widget visitors chat at a human pace (a message every 0.5-1.5 x PACE_MS each); each
 * closes its socket after about RECONNECT_EVERY messages (0.5-1.5 x) and comes back as a
 * returning visitor (its visitor token, the history after its last message), as a tab that is
 * reloaded does. Every message must be answered by the bot. Runs until its stdin closes, then
 * prints one JSON line: {messages, answered, errors, reconnects}.
 */
export {}

const [url, countArg = '300', paceArg = '1000', reconnectArg = '50'] = process.argv.slice(2)
if (!url) throw new Error('usage: soak-visitors.ts URL COUNT PACE_MS RECONNECT_EVERY')
const count = Number(countArg)
const paceMs = Number(paceArg)
const reconnectEvery = Number(reconnectArg)

let messages = 0
let answered = 0
let errors = 0
let reconnects = 0
let stopping = false

type Frame = Record<string, any>

/** One socket's frames, waited for one kind at a time. */
class Tab {
  private readonly waiting: { accept: (frame: Frame) => boolean; resolve: (frame: Frame | null) => void }[] = []
  private constructor(private readonly socket: WebSocket) {
    socket.onmessage = (event) => {
      const frame = JSON.parse(String(event.data)) as Frame
      if (frame.type === 'error') errors++
      const index = this.waiting.findIndex((wait) => wait.accept(frame))
      if (index >= 0) this.waiting.splice(index, 1)[0]?.resolve(frame)
    }
    socket.onclose = () => {
      for (const wait of this.waiting.splice(0)) wait.resolve(null)
    }
  }

  static open(target: string): Promise<Tab> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(target)
      socket.onopen = () => resolve(new Tab(socket))
      socket.onerror = () => reject(new Error('connect failed'))
    })
  }

  next(accept: (frame: Frame) => boolean, ms = 30_000): Promise<Frame | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), ms)
      this.waiting.push({ accept, resolve: (frame) => (clearTimeout(timer), resolve(frame)) })
    })
  }

  send(frame: Frame): void {
    this.socket.send(JSON.stringify(frame))
  }

  close(): void {
    this.socket.close()
  }
}

const isBot = (frame: Frame) => frame.type === 'message' && frame.message?.role === 'bot'

async function visitor(index: number): Promise<void> {
  let token: string | undefined
  let lastId: string | undefined
  let sequence = 0
  while (!stopping) {
    const tab = await Tab.open(url as string)
    const welcome = tab.next((frame) => frame.type === 'welcome')
    tab.send({ type: 'hello', v: 1, ...(token ? { visitor_token: token } : {}), ...(lastId ? { after: lastId } : {}) })
    const welcomed = await welcome
    if (!welcomed) {
      if (!stopping) errors++
      tab.close()
      continue
    }
    token = welcomed.visitor_token
    if (!welcomed.conversation) {
      const greeted = tab.next(isBot)
      tab.send({ type: 'start' })
      lastId = (await greeted)?.message?.id ?? lastId
    }
    const stay = Math.max(1, Math.round(reconnectEvery * (0.5 + Math.random())))
    for (let said = 0; said < stay && !stopping; said++) {
      await Bun.sleep(paceMs * (0.5 + Math.random()))
      if (stopping) break
      const clientId = `s${index}_${sequence++}`
      const answer = tab.next(isBot)
      tab.send({ type: 'message', client_id: clientId, text: `message ${sequence} from visitor ${index}` })
      messages++
      const got = await answer
      if (got) {
        answered++
        lastId = got.message.id
      } else if (!stopping) errors++
    }
    tab.close()
    if (!stopping) reconnects++
  }
}

const running = Array.from({ length: count }, (_, index) => visitor(index))
console.log('started')
const stdin = Bun.stdin.stream().getReader()
while (!(await stdin.read()).done);
stopping = true
await Promise.race([Promise.all(running), Bun.sleep(35_000)])
console.log(JSON.stringify({ messages, answered, errors, reconnects }))
process.exit(0)
