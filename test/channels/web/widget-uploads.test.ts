import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { UPLOAD_PATH } from '../../../server/protocol/widget-protocol.ts'
import { SAMPLE } from '../../attachments/sample-files.ts'
import { type LiveServer, liveServer } from '../../support/live-server.ts'
import { rawRequest } from '../../support/raw-request.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'
import { WidgetClient } from '../../support/widget-client.ts'
import { refusalNote, uploadFile } from '../../../widget/src/upload-file.ts'
import { openSession, until } from '../../widget/support/session-helpers.ts'

const MAX_BYTES = 4096
let server: LiveServer
const clients: WidgetClient[] = []

beforeAll(() => {
  server = liveServer({ PARLEY_ATTACHMENT_MAX_BYTES: String(MAX_BYTES) }, { uploadGraceMs: 300 })
})
afterAll(async () => {
  for (const client of clients) client.close()
  await server.stop()
})

async function visitor(chat: WebChat, origin?: string) {
  const client = await WidgetClient.connect(server.socketUrl(chat.widgetKey), origin)
  clients.push(client)
  const welcome = await client.hello()
  return { client, welcome }
}

function upload(chat: WebChat, token: string | null, bytes: Uint8Array, options: { clientId?: string; filename?: string; origin?: string; contentType?: string } = {}) {
  const query = new URLSearchParams({ key: chat.widgetKey, client_id: options.clientId ?? 'u1', filename: options.filename ?? 'photo.png' })
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/octet-stream' }
  if (token) headers.authorization = `Bearer ${token}`
  if (options.origin) headers.origin = options.origin
  return fetch(`${server.origin}${UPLOAD_PATH}?${query}`, { method: 'POST', headers, body: bytes as Uint8Array<ArrayBuffer> })
}

const messagesOf = async (chat: WebChat, conversationId: string) =>
  (await server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${conversationId}/messages`)).body.items as { role: string; content: any; client_id?: string }[]

describe('a visitor sends a file from the widget', () => {
  test('the welcome carries an upload token and the size limit; the upload stores the media message, echoed on the socket and listed by the API', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { client, welcome } = await visitor(chat)
    expect(welcome.upload_token).toMatch(/^ut_[0-9A-Za-z]{32}$/)
    expect(welcome.upload_max_bytes).toBe(MAX_BYTES)
    client.send({ type: 'start' })
    const [greeting] = await client.messages(1)

    const answer = await upload(chat, welcome.upload_token, SAMPLE.png, { clientId: 'pic-1', filename: 'dent.png' })
    expect(answer.status).toBe(201)
    const { message } = (await answer.json()) as { message: any }
    expect(message).toMatchObject({ role: 'visitor', client_id: 'pic-1', conversation_id: greeting!.conversation_id, content: { kind: 'media', media: { type: 'image', filename: 'dent.png' } } })
    const [echo] = await client.messages(1)
    expect(echo).toEqual(message)

    const stored = await messagesOf(chat, greeting!.conversation_id)
    expect(stored.at(-1)).toMatchObject({ role: 'visitor', client_id: 'pic-1', content: message.content })
    const file = await fetch(message.content.media.url.replace('http://parley.test', server.origin))
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(SAMPLE.png)
  })

  test('a file with no conversation running opens one, greeting first; a PDF is a file', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { client, welcome } = await visitor(chat)
    const answer = await upload(chat, welcome.upload_token, SAMPLE.pdf, { filename: 'claim.pdf' })
    expect(answer.status).toBe(201)
    const shown = await client.messages(2)
    expect(shown.map((m) => [m.role, m.content.kind])).toEqual([
      ['visitor', 'media'],
      ['bot', 'text'],
    ])
    expect(shown[0]!.content).toMatchObject({ media: { type: 'file', filename: 'claim.pdf' } })
  })

  test('a resend with the same client id answers the first copy and stores nothing more', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { client, welcome } = await visitor(chat)
    client.send({ type: 'start' })
    const [greeting] = await client.messages(1)
    const first = (await (await upload(chat, welcome.upload_token, SAMPLE.png, { clientId: 'same' })).json()) as { message: { id: string } }
    const again = await upload(chat, welcome.upload_token, SAMPLE.png, { clientId: 'same' })
    expect(again.status).toBe(200)
    expect(((await again.json()) as { message: { id: string } }).message.id).toBe(first.message.id)
    expect((await messagesOf(chat, greeting!.conversation_id)).filter((m) => m.role === 'visitor')).toHaveLength(1)
    const files = server.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM attachments WHERE conversation_id = ?').get(greeting!.conversation_id)
    expect(files).toEqual({ n: 1 })
  })

  test('a refused type or an oversized file is a readable problem, and nothing is stored', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!', allowed_domains: ['shop.example'] } })
    const origin = 'https://shop.example'
    const { client, welcome } = await visitor(chat, origin)
    client.send({ type: 'start' })
    const [greeting] = await client.messages(1)

    const svg = await upload(chat, welcome.upload_token, SAMPLE.svg, { filename: 'logo.png', contentType: 'image/png', origin })
    expect(svg.status).toBe(415)
    expect(svg.headers.get('access-control-allow-origin')).toBe(origin)
    expect(svg.headers.get('content-type')).toStartWith('application/problem+json')
    expect(await svg.json()).toMatchObject({ code: 'attachment_type_refused', detail: 'only PNG, JPEG, GIF or WebP images and PDF files can be sent; this file is an SVG image' })

    const html = await upload(chat, welcome.upload_token, SAMPLE.html, { filename: 'page.png', origin })
    expect(await html.json()).toMatchObject({ status: 415, code: 'attachment_type_refused' })

    const big = new Uint8Array(MAX_BYTES + 1)
    big.set(SAMPLE.png)
    const tooLarge = await upload(chat, welcome.upload_token, big, { origin })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.headers.get('access-control-allow-origin')).toBe(origin)
    expect(await tooLarge.json()).toMatchObject({ code: 'attachment_too_large', detail: 'the file is 4.1 KiB; files may be at most 4 KiB' })

    const noId = await upload(chat, welcome.upload_token, SAMPLE.png, { clientId: 'not valid!', origin })
    expect(noId.status).toBe(422)
    expect(await noId.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: '/client_id' }] })

    expect((await messagesOf(chat, greeting!.conversation_id)).filter((m) => m.role === 'visitor')).toHaveLength(0)
    expect(server.db.query('SELECT count(*) AS n FROM attachments WHERE conversation_id = ?').get(greeting!.conversation_id)).toEqual({ n: 0 })
  })
})

describe('a file just over the limit reads the same from the widget and from the server', () => {
  test("the widget's own refusal is the server's 413 detail as the bubble shows it, in the same units and figures", async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { welcome } = await visitor(chat)
    const big = new Uint8Array(MAX_BYTES + 1)
    big.set(SAMPLE.png)
    const refused = await upload(chat, welcome.upload_token, big)
    expect(refused.status).toBe(413)
    const { detail } = (await refused.json()) as { detail: string }

    const session = openSession(server, chat.widgetKey)
    try {
      await until(() => session.messages().length >= 1, 'the greeting, after the welcome with the limit')
      session.sendFile(new File([big], 'photo.png', { type: 'image/png' }), uploadFile)
      await until(() => session.outgoing().some((item) => item.failed), "the widget's refusal")
      expect(session.outgoing()[0]!.failed).toBe(refusalNote(detail))
      expect(refusalNote(detail)).toBe('The file is 4.1 KiB; files may be at most 4 KiB.')
    } finally {
      session.setActive(false)
    }
  })
})

describe('who may upload', () => {
  test('CORS: the preflight and the answers allow only the integration\'s pages', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { allowed_domains: ['shop.example'] } })
    const preflight = (origin: string) =>
      fetch(`${server.origin}${UPLOAD_PATH}?key=${chat.widgetKey}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } })
    const allowed = await preflight('https://shop.example')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST')
    expect(allowed.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    const foreign = await preflight('https://evil.example')
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()

    const { welcome } = await visitor(chat, 'https://shop.example')
    const stolen = await upload(chat, welcome.upload_token, SAMPLE.png, { origin: 'https://evil.example' })
    expect(stolen.status).toBe(403)
    expect(stolen.headers.get('access-control-allow-origin')).toBeNull()
    expect(await stolen.json()).toMatchObject({ code: 'origin_not_allowed' })
  })

  test('no token, a wrong one, or another widget\'s socket\'s token: 401 before the body is read', async () => {
    const chat = await setUpWebChat(server, { flow: null })
    const other = await setUpWebChat(server, { flow: null })
    const { welcome: otherWelcome } = await visitor(other)
    for (const token of [null, 'ut_wrong', otherWelcome.upload_token]) {
      const answer = await upload(chat, token, SAMPLE.png)
      expect(answer.status).toBe(401)
      expect(await answer.json()).toMatchObject({ code: 'upload_token_invalid' })
    }
    // A stranger's declared body is never waited for: the answer comes from the head alone
    // (reading first would hang here, since the body never comes).
    const head = await rawRequest(server.origin, `POST ${UPLOAD_PATH}?key=${chat.widgetKey}&client_id=x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\nContent-Length: 1000\r\n`)
    expect(head.status).toBe(401)
    const unknownKey = await fetch(`${server.origin}${UPLOAD_PATH}?key=wk_nope&client_id=x`, { method: 'POST', body: SAMPLE.png })
    expect(unknownKey.status).toBe(404)
  })

  test('a closed socket\'s token works for its grace period, then stops; a new welcome brings a new token', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { client, welcome } = await visitor(chat)
    const open = server.hub.size
    client.close()
    // Only once the server has seen the socket close is the upload one of the grace period.
    for (let i = 0; i < 100 && server.hub.size === open; i++) await Bun.sleep(5)
    expect(server.hub.size).toBe(open - 1)
    expect((await upload(chat, welcome.upload_token, SAMPLE.png, { clientId: 'late' })).status).toBe(201)
    await Bun.sleep(400)
    expect((await upload(chat, welcome.upload_token, SAMPLE.png, { clientId: 'later' })).status).toBe(401)
    const { welcome: again } = await visitor(chat)
    expect(again.upload_token).not.toBe(welcome.upload_token)
  })

  test('at most 10 files a minute per socket', async () => {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { welcome } = await visitor(chat)
    for (let i = 0; i < 10; i++) expect((await upload(chat, welcome.upload_token, SAMPLE.gif, { clientId: `g${i}` })).status).toBe(201)
    const over = await upload(chat, welcome.upload_token, SAMPLE.gif, { clientId: 'g10' })
    expect(over.status).toBe(429)
    expect(over.headers.get('retry-after')).toBe('60')
  })
})
