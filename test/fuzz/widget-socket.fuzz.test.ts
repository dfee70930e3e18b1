import { beforeAll, describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import fc from 'fast-check'
import { ClientMessage, FRAME_LIMITS, ServerMessage } from '../../server/protocol/widget-protocol.ts'
import { socketSuite } from '../support/socket-suite.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import type { WidgetClient } from '../support/widget-client.ts'
import { documented } from './support/socket-documented.ts'
import { type FuzzFrame, type FuzzSession, fuzzSession } from './support/socket-frames.ts'
import { Opcode, RawSocketClient } from './support/socket-raw-client.ts'

/**
 * Property-based fuzzing of the widget socket: sessions of valid, mutated, huge, deep, wide,
 * unparsable, binary and non-UTF-8 frames against a live server. A fixed seed and a small
 * budget keep `npm test` quick and repeatable; FUZZ_RUNS and FUZZ_SEED explore further.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60)
const SEED = Number(process.env.FUZZ_SEED ?? 20261123)

const suite = socketSuite()
const checkServerMessage = TypeCompiler.Compile(ServerMessage)
const checkClientMessage = TypeCompiler.Compile(ClientMessage)

/** The frame as the protocol would read it, or undefined when it is no JSON text. */
function parsedFrame(frame: FuzzFrame): unknown {
  try {
    const text = frame.kind === 'text' ? frame.text : new TextDecoder('utf-8', { fatal: true }).decode(frame.bytes)
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const frameBytes = (frame: FuzzFrame): number => (frame.kind === 'text' ? Buffer.byteLength(frame.text) : frame.bytes.length)

/** The client_ids of the chat messages a session sent in a frame the protocol accepts. */
function acceptableClientIds(session: FuzzSession): Set<string> {
  const ids = new Set<string>()
  for (const frame of session.frames) {
    const message = parsedFrame(frame)
    if (checkClientMessage.Check(message) && (message.type === 'message' || message.type === 'reply')) ids.add(message.client_id)
  }
  return ids
}

/** A failing session in a few hundred characters: its frames can be 70,000 characters long. */
function short(value: unknown): string {
  const text = JSON.stringify(value, (_, field) => (field instanceof Uint8Array ? `bytes(${[...field.subarray(0, 16)]}${field.length > 16 ? ',...' : ''})` : field))
  return text.length > 1500 ? `${text.slice(0, 1500)}... (${text.length} characters)` : text
}

describe('fuzzed widget socket frames', () => {
  let chat: WebChat
  let witness: WidgetClient
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server)
    witness = await suite.connect(chat)
    await witness.hello()
  })

  const lastRowId = (): number => (suite.server.db.query('SELECT coalesce(max(rowid), 0) AS last FROM messages').get() as { last: number }).last
  const visitorMessagesAfter = (rowId: number) =>
    suite.server.db.query("SELECT client_id FROM messages WHERE rowid > ? AND role = 'visitor'").all(rowId) as { client_id: string | null }[]

  function send(client: RawSocketClient, frame: FuzzFrame): void {
    if (frame.kind === 'text') client.sendFrame(Opcode.text, frame.text)
    else client.sendFrame(frame.kind === 'binary' ? Opcode.binary : Opcode.text, frame.bytes)
  }

  /** Plays one session and waits until the server has dealt with every frame of it. */
  async function play(session: FuzzSession): Promise<RawSocketClient> {
    const client = await RawSocketClient.open(suite.server.socketUrl(chat.widgetKey))
    if (session.helloFirst) client.sendText(JSON.stringify({ type: 'hello', v: 1 }))
    for (const frame of session.frames) send(client, frame)
    const last = session.frames.at(-1)!
    for (let i = 0; i < session.floodLast; i++) send(client, last)
    // Frames are handled in order: a pong to a final ping, or a close, means every frame was
    // dealt with. Past the burst the ping itself may be refused: then the server must fall quiet
    // having said rate_limited (bot answers, sent once stored, may come after it).
    client.sendText('{"type":"ping"}')
    const answered = (log: RawSocketClient['log']) => log.close !== null || log.ended || log.texts.includes('{"type":"pong"}')
    if (!(await client.until(answered, 1000))) {
      await client.quiet(150)
      const sent = (session.helloFirst ? 1 : 0) + session.frames.length + session.floodLast + 1
      const refused = client.log.texts.some((text) => text.includes('"rate_limited"'))
      if (!answered(client.log) && !(sent > 30 && refused)) {
        throw new Error(`the server neither answered nor closed; it sent ${short(client.log.texts.slice(-5))}`)
      }
    }
    return client
  }

  test(`${RUNS} sessions: every answer is documented, nothing refused is stored, others keep being served`, async () => {
    let witnessPingedAt = 0
    await fc.assert(
      fc.asyncProperty(fuzzSession, async (session) => {
        const before = lastRowId()
        const client = await play(session)
        try {
          const { log } = client
          // A connection that ends says why with a close frame of the page's table.
          if (log.ended || log.close) {
            expect(log.close).not.toBeNull()
            expect(documented.closeCodes.has(log.close!.code)).toBe(true)
          }
          expect(log.others).toEqual([])
          // Every frame counts against the allowance (bursts of 30, then 20 refusals), valid or not.
          const sent = (session.helloFirst ? 1 : 0) + session.frames.length + session.floodLast + 1
          if (sent > 30 + 20 + 2) expect(log.close).not.toBeNull()
          // A frame over the size limit is never answered: it closes the socket, if nothing did before.
          if (session.frames.some((frame) => frameBytes(frame) > FRAME_LIMITS.maxBytes)) expect(log.close).not.toBeNull()
          const answers = log.texts.map((text) => JSON.parse(text) as unknown)
          for (const answer of answers) {
            expect(checkServerMessage.Check(answer)).toBe(true)
            const message = answer as ServerMessage
            if (message.type === 'error') expect(documented.errorCodes.has(message.code) && message.code !== 'internal_error').toBe(true)
          }
          // Writes are committed just after the turn that made them.
          await Bun.sleep(5)
          const acceptable = acceptableClientIds(session)
          for (const stored of visitorMessagesAfter(before)) expect(acceptable.has(stored.client_id ?? '')).toBe(true)
        } finally {
          client.destroy()
        }
        // Another visitor and the health check keep answering (the witness pings within its own allowance of 2 a second).
        if (performance.now() - witnessPingedAt > 600) {
          witnessPingedAt = performance.now()
          witness.send({ type: 'ping' })
          await witness.next('pong')
        }
        expect((await fetch(`${suite.server.origin}/healthz`)).status).toBe(200)
      }),
      {
        seed: SEED,
        numRuns: RUNS,
        endOnFailure: true,
        asyncReporter: async (details) => {
          if (details.failed) {
            throw new Error(`seed ${details.seed}, path ${details.counterexamplePath}: ${short(details.counterexample)}\n${details.errorInstance}`)
          }
        },
      },
    )
    expect(suite.server.logLines.filter((line) => line.includes('"level":"error"'))).toEqual([])
    witness.send({ type: 'ping' })
    await witness.next('pong')
  }, 120_000)
})
