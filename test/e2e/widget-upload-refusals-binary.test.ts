import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { UPLOAD_PATH } from '../../server/protocol/widget-protocol.ts'
import { SAMPLE } from '../attachments/sample-files.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { type ParleyServer, startParley } from './support/parley-server.ts'

const MAX_BYTES = 65_536
/** Declared by the refused uploads: sixteen times the limit, sent 16 KiB at a time. */
const DECLARED = 16 * MAX_BYTES
const CHUNK = 16 * 1024
const ORIGIN = 'https://shop.example'

interface SlowAnswer {
  status: number
  headers: Record<string, string>
  body: string
  /** Body bytes written to the socket when the answer's first byte arrived. */
  sentWhenAnswered: number
}

/**
 * POSTs a head declaring DECLARED body bytes, then writes the body a chunk at a time, one more
 * only after a pause, until the answer starts to arrive (or all of it is written). A server
 * that reads the whole body before answering can answer only once all is sent; one that answers
 * from the head answers while most of it is still unsent: told apart by order, not by time.
 */
function slowUpload(origin: string, path: string, headers: Record<string, string>): Promise<SlowAnswer> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    let sent = 0
    let sentWhenAnswered = -1
    let received = Buffer.alloc(0)
    const socket = connect(Number(port), hostname)
    const head = Object.entries({ host: `${hostname}:${port}`, 'content-length': String(DECLARED), ...headers }).map(([name, value]) => `${name}: ${value}\r\n`)
    const writeNext = () => {
      if (sentWhenAnswered >= 0 || sent >= DECLARED || socket.destroyed) return
      socket.write(new Uint8Array(Math.min(CHUNK, DECLARED - sent)))
      sent += Math.min(CHUNK, DECLARED - sent)
      setTimeout(writeNext, 50)
    }
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\n${head.join('')}\r\n`)
      writeNext()
    })
    socket.on('data', (chunk) => {
      if (sentWhenAnswered < 0) sentWhenAnswered = sent
      received = Buffer.concat([received, Buffer.from(chunk)])
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n')
      const answerHeaders = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      const body = received.subarray(end + 4)
      if (body.byteLength < Number(answerHeaders['content-length'] ?? 0)) return
      socket.destroy()
      resolve({ status: Number(statusLine.split(' ')[1]), headers: answerHeaders, body: body.toString('utf8'), sentWhenAnswered })
    })
    // Once answered, the server may close while the rest is being written.
    socket.on('error', (error) => {
      if (sentWhenAnswered < 0) reject(error)
    })
  })
}

const uploadPath = (chat: WebChat) => `${UPLOAD_PATH}?key=${chat.widgetKey}&client_id=u1&filename=photo.png`

/**
 * The upload refusals that come before the body is read, against the compiled `dist/parley`
 * (the binary users run, whose HTTP server and body parser could differ from the source's):
 * a bad or expired upload token answers 401 and an over-large declared body 413, each as
 * problem+json, while most of the declared body is still unsent.
 */
describe('widget uploads refused from the request head, against the compiled binary', () => {
  let parley: ParleyServer
  let binaryUrl = ''
  let chat: WebChat
  let otherChat: WebChat
  let tokenBeforeRestart = ''
  const clients: WidgetClient[] = []

  async function visitorToken(of: WebChat): Promise<string> {
    const client = await WidgetClient.connect(`${binaryUrl.replace('http', 'ws')}/widget/v1/socket?key=${of.widgetKey}`, ORIGIN)
    clients.push(client)
    return (await client.hello()).upload_token
  }

  beforeAll(async () => {
    parley = await startParley({ PARLEY_ATTACHMENT_MAX_BYTES: String(MAX_BYTES) })
    chat = await setUpWebChat(parley.app, { flow: null, web: { greeting_message: 'Hello!', allowed_domains: ['shop.example'] } })
    otherChat = await setUpWebChat(parley.app, { flow: null, web: { greeting_message: 'Hello!', allowed_domains: ['shop.example'] } })
    // A token the server gave before it restarted: tokens live with their socket, in memory,
    // so the restarted server knows it no more than one expired past its grace period.
    const before = await WidgetClient.connect(`${parley.url.replace('http', 'ws')}/widget/v1/socket?key=${chat.widgetKey}`, ORIGIN)
    tokenBeforeRestart = (await before.hello()).upload_token
    before.close()
    await parley.pause()
    await parley.app.serveFromBinary()
    binaryUrl = parley.app.binaryUrl()!
  }, 60_000)
  afterAll(async () => {
    for (const client of clients) client.close()
    await parley?.app.close()
  })

  test('with a live token, a small file is stored (the path the refusals below are refused on)', async () => {
    const token = await visitorToken(chat)
    const stored = await fetch(`${binaryUrl}${uploadPath(chat)}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: ORIGIN }, body: SAMPLE.png })
    expect(stored.status).toBe(201)
    expect(((await stored.json()) as { message: { role: string } }).message.role).toBe('visitor')
  })

  test.each([
    ['a token from before the server restarted', async () => tokenBeforeRestart],
    ['a token never given out', async () => `ut_${'x'.repeat(32)}`],
    ["another widget's live token", () => visitorToken(otherChat)],
  ])('%s answers 401 problem+json while most of the declared body is unsent', async (_, tokenOf) => {
    const token = await tokenOf()
    const answer = await slowUpload(binaryUrl, uploadPath(chat), { authorization: `Bearer ${token}`, origin: ORIGIN, 'content-type': 'image/png' })
    expect(answer.status).toBe(401)
    expect(answer.headers['content-type']).toStartWith('application/problem+json')
    expect(answer.headers['www-authenticate']).toBe('Bearer')
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(JSON.parse(answer.body)).toMatchObject({ status: 401, code: 'upload_token_invalid', detail: expect.stringContaining('upload_token') })
    expect(answer.sentWhenAnswered).toBeLessThan(DECLARED)
  }, 30_000)

  test('a live token with a declared body over PARLEY_ATTACHMENT_MAX_BYTES answers 413 problem+json naming both sizes, before the body is read', async () => {
    const token = await visitorToken(chat)
    const files = () => parley.app.db.query<{ n: number }, []>('SELECT count(*) AS n FROM attachments').get()?.n
    const before = files()
    const answer = await slowUpload(binaryUrl, uploadPath(chat), { authorization: `Bearer ${token}`, origin: ORIGIN, 'content-type': 'image/png' })
    expect(answer.status).toBe(413)
    expect(answer.headers['content-type']).toStartWith('application/problem+json')
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: 'attachment_too_large', detail: 'the file is 1 MiB; files may be at most 64 KiB' })
    expect(answer.sentWhenAnswered).toBeLessThan(DECLARED)
    expect(files()).toBe(before)
  }, 30_000)
})
