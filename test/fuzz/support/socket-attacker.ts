/**
 * The heavy widget-socket visitor of issue 17, run as its own process so that the cost of
 * building and sending its frames never shows in the timing of the process that measures the
 * server: `bun socket-attacker.ts <socket url>` opens four sockets that each send three
 * `contact_details` frames of 6.4 MiB with 400,000 keys, and two that each flood 8,000
 * schema-invalid frames; it prints what came back as one JSON line and exits once the server
 * has closed or answered every socket (or after 30 s).
 */
export {}

const url = process.argv[2]
if (!url) throw new Error('usage: socket-attacker.ts <socket url>')

const KEYS = 400_000
const hugeFrame = `{"type":"contact_details","details":{${Array.from({ length: KEYS }, (_, i) => `"k${i}":${i}`).join(',')}}}`
const FLOOD = 8000

interface Outcome {
  answers: number
  close: { code: number; reason: string } | null
}

async function visitor(frames: string[], expectedAnswers: number): Promise<Outcome> {
  const socket = new WebSocket(url!)
  const outcome: Outcome = { answers: 0, close: null }
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true })
    socket.addEventListener('error', () => reject(new Error('the socket did not open')), { once: true })
  })
  const finished = new Promise<void>((resolve) => {
    socket.addEventListener('close', (event) => {
      outcome.close = { code: event.code, reason: event.reason }
      resolve()
    })
    socket.addEventListener('message', () => {
      if (++outcome.answers >= expectedAnswers) resolve()
    })
  })
  socket.send(JSON.stringify({ type: 'hello', v: 1 }))
  for (const frame of frames) {
    if (socket.readyState !== WebSocket.OPEN) break
    socket.send(frame)
  }
  await Promise.race([finished, Bun.sleep(30_000)])
  socket.close()
  return outcome
}

const started = performance.now()
const outcomes = await Promise.all([
  // The welcome, then one answer (contact_details_limit) per frame.
  ...Array.from({ length: 4 }, () => visitor([hugeFrame, hugeFrame, hugeFrame], 4)),
  ...Array.from({ length: 2 }, () => visitor(Array.from({ length: FLOOD }, () => '{"type":"message","text":7}'), FLOOD + 1)),
])
console.log(JSON.stringify({ frameBytes: hugeFrame.length, ms: Math.round(performance.now() - started), outcomes }))
process.exit(0)
