import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listen } from '../../server/listen.ts'
import { SAMPLE } from '../attachments/sample-files.ts'
import { rawRequest } from '../support/raw-request.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { DESK, type DeskCtx, deskContext, flush } from './support/desk-context.ts'
import { deskUpload } from './support/desk-upload.ts'

const MAX_BYTES = 4096

let app: TestApp
let c: DeskCtx

beforeAll(async () => {
  app = testApp({ PARLEY_ATTACHMENT_MAX_BYTES: String(MAX_BYTES) })
  c = await deskContext(app)
})
afterAll(() => app.close())

/** POSTs raw bytes as the desk does (session cookie and Origin), or with the API key when no headers are given. */
const upload = (conversationId: string, bytes: Uint8Array, options: Parameters<typeof deskUpload>[3] = {}) => deskUpload(app, conversationId, bytes, options)

const pathOf = (url: string) => new URL(url).pathname

describe('POST /desk/conversations/{id}/attachments', () => {
  test("a person's picture becomes an agent media message signed with their name, and its address serves the bytes", async () => {
    const sent = await upload(c.first.id, SAMPLE.png, { filename: 'screenshot.png', headers: c.asAgent })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({ role: 'agent', author: 'sam', conversation_id: c.first.id, content: { kind: 'media', media: { type: 'image', filename: 'screenshot.png' } } })
    expect(sent.body.content.media.url).toStartWith('http://parley.test/attachments/')
    await flush()
    const stored = app.services.conversations.history(c.first.id).messages.at(-1)
    expect(stored).toMatchObject({ id: sent.body.id, role: 'agent', content: sent.body.content })
    const row = await app.call('GET', `${DESK}/conversations/${c.first.id}`)
    expect(row.body.last_message).toMatchObject({ id: sent.body.id, role: 'agent', preview: '[image] screenshot.png' })
    const served = await app.fetch(new Request(`http://localhost${pathOf(sent.body.content.media.url)}`))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(SAMPLE.png)
  })

  test('a PDF sent with an API key is a file message with no author, named by its real type, found by its name in search', async () => {
    const sent = await upload(c.second.id, SAMPLE.pdf, { filename: 'quarterly-statement' })
    expect(sent.status).toBe(201)
    expect(sent.body.author).toBeUndefined()
    expect(sent.body.content.media).toMatchObject({ type: 'file', filename: 'quarterly-statement.pdf' })
    await flush()
    await app.services.deskSearch.caughtUp()
    const found = await app.call('GET', `${DESK}/conversations?view=open&q=quarterly`)
    expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([c.second.id])
  })

  test('the type is told by the bytes: an SVG named .png and sent as image/png is refused with 415, and nothing is stored', async () => {
    const before = app.services.conversations.history(c.first.id).messages.length
    const refused = await upload(c.first.id, SAMPLE.svg, { filename: 'logo.png', contentType: 'image/png', headers: c.asAgent })
    expect(refused.status).toBe(415)
    expect(refused.headers.get('content-type')).toStartWith('application/problem+json')
    expect(refused.body).toMatchObject({ code: 'attachment_type_refused' })
    expect(refused.body.detail).toContain('SVG')
    await flush()
    expect(app.services.conversations.history(c.first.id).messages.length).toBe(before)
  })

  test('a file over PARLEY_ATTACHMENT_MAX_BYTES is refused with 413 attachment_too_large before it is read', async () => {
    const big = new Uint8Array(MAX_BYTES + 1)
    big.set(SAMPLE.png)
    const refused = await upload(c.first.id, big, { filename: 'big.png', headers: c.asAgent })
    expect(refused.status).toBe(413)
    expect(refused.body).toMatchObject({ code: 'attachment_too_large' })
    expect(refused.body.detail).toContain('files may be at most 4 KiB')
    // Declared too large, the body never comes: the answer comes from the head alone (reading first would hang).
    const server = listen(app, { port: 0, hostname: '127.0.0.1' })
    try {
      const head = await rawRequest(
        `http://127.0.0.1:${server.port}`,
        `POST ${DESK}/conversations/${c.first.id}/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${app.key}\r\nContent-Length: ${MAX_BYTES + 1}\r\n`,
      )
      expect(head.status).toBe(413)
      expect(JSON.parse(head.body)).toMatchObject({ code: 'attachment_too_large', detail: 'the file is 4.1 KiB; files may be at most 4 KiB' })
    } finally {
      server.stop(true)
    }
  })

  test('an empty body is refused with 400 attachment_empty', async () => {
    const refused = await upload(c.first.id, new Uint8Array(), { headers: c.asAgent })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('attachment_empty')
  })

  test("another workspace's conversation answers 404, and an unknown one too", async () => {
    expect((await upload(c.other.id, SAMPLE.png, { headers: c.asAgent })).status).toBe(404)
    expect((await upload(c.other.id, SAMPLE.png)).status).toBe(404)
    expect((await upload('01JUNKNOWNCONVERSATION0000', SAMPLE.png)).status).toBe(404)
  })

  test('a session without an Origin header is refused (a cross-site form cannot post a file)', async () => {
    const refused = await upload(c.first.id, SAMPLE.png, { headers: { cookie: c.asAgent.cookie } })
    expect(refused.status).toBe(403)
  })

  test('without credentials, nothing is read: 401', async () => {
    const refused = await upload(c.first.id, SAMPLE.png, { headers: {} })
    expect(refused.status).toBe(401)
  })
})
