import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SAMPLE } from '../attachments/sample-files.ts'
import { type ChatappChat, postWebhook, setUpChatappChat, userMessage } from '../channels/chatapp/support/chatapp-chat.ts'
import { type FakeGraphApi, fakeGraphApi } from '../channels/chatapp/support/fake-graph-api.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { runParley } from '../support/run-parley.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

const USER = '447911123456'
const MAX_BYTES = 4096
const VERIFY_TOKEN = 'verify-me-please'

/** Longer than a prompt shutdown, shorter than Parley's own 8 s download timeout (after which the old code stored the message). */
const HANG_MS = 7_000

const image = (id: string, caption: string) => ({ type: 'image', image: { id, mime_type: 'image/png', caption } })

/**
 * The chatapp paths that were tested only from source, against the compiled `dist/parley`
 * (a difference between the two is a defect): the verify handshake's record, and a user's
 * picture that cannot be downloaded (the provider's file answers 404; a file over
 * PARLEY_ATTACHMENT_MAX_BYTES). The provider is a fake on 127.0.0.1.
 */
describe('the chatapp channel in the compiled binary', () => {
  let graph: FakeGraphApi
  let app: TestApp
  let chat: ChatappChat

  beforeAll(async () => {
    graph = fakeGraphApi()
    app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url, PARLEY_ATTACHMENT_MAX_BYTES: String(MAX_BYTES) })
    chat = await setUpChatappChat(app, graph)
    await app.serveFromBinary()
  }, 60_000)
  afterAll(async () => {
    await app.close()
    graph.stop()
  })

  const handshake = (token: string) =>
    app.call('GET', `${chat.hookPath}?${new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' })}`, { key: null })
  const record = async () => (await app.call('GET', chat.path('/integrations/chatapp/handshake'))).body

  /** The texts and media the user's messages became, in order. */
  async function visitorContents() {
    const [conversation] = (await app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items
    const items = (await app.call('GET', chat.path(`/conversations/${conversation.id}/messages?limit=200`))).body.items as any[]
    return items.filter((message) => message.role === 'visitor').map((message) => message.content)
  }

  /** Whether the binary logged `text`: its stdout is read as it comes, so a line may still be on its way. */
  async function logged(text: string): Promise<boolean> {
    for (let tries = 0; tries < 200; tries++) {
      if (app.logLines.some((line) => line.includes(text))) return true
      await Bun.sleep(25)
    }
    return false
  }

  test('the handshake record: a refusal remembered with its reason, a success stored beside it', async () => {
    expect(app.target()).toBe('binary')
    expect(await record()).toEqual({ verified_at: null, refused_at: null, refusal: null })
    expect((await handshake('not-the-token')).status).toBe(403)
    const refused = await record()
    expect(refused).toMatchObject({ verified_at: null, refusal: 'hub.verify_token does not match the verify_token of this integration' })
    expect(Date.parse(refused.refused_at)).toBeGreaterThan(Date.now() - 60_000)
    const verified = await handshake(VERIFY_TOKEN)
    expect([verified.status, verified.text]).toEqual([200, '1158201444'])
    const after = await record()
    expect(Date.parse(after.verified_at)).toBeGreaterThanOrEqual(Date.parse(refused.refused_at))
    expect(after.refusal).toBe(refused.refusal)
  })

  test('a picture whose download answers 404, and one over PARLEY_ATTACHMENT_MAX_BYTES, are kept as their text, with a warning that says why', async () => {
    const lost = graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png')
    graph.loseFile(lost)
    const big = new Uint8Array(MAX_BYTES * 2)
    big.set(SAMPLE.png)
    const oversize = graph.addMedia(chat.phoneNumberId, big, 'image/png')
    const fits = graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png')
    for (const [id, caption] of [[lost, 'lost'], [oversize, 'too big'], [fits, 'fits']] as const) {
      const posted = await postWebhook(app, chat, userMessage(chat, USER, image(id, caption)))
      expect([posted.status, posted.body.messages]).toEqual([200, { stored: 1, duplicates: 0 }])
    }
    const contents = await visitorContents()
    expect(contents.slice(-3)).toEqual([
      { kind: 'text', text: '[image] lost' },
      { kind: 'text', text: '[image] too big' },
      { kind: 'media', media: expect.objectContaining({ type: 'image', caption: 'fits' }) },
    ])
    expect(await logged(`downloading media ${lost}: HTTP 404`)).toBe(true)
    expect(await logged(`media ${oversize} is ${MAX_BYTES * 2} bytes, over PARLEY_ATTACHMENT_MAX_BYTES (${MAX_BYTES})`)).toBe(true)
    // The oversize file was not fetched: only described.
    expect(graph.mediaRequests.filter((request) => request.path.endsWith(`/${oversize}`)).map((request) => request.path)).toEqual([`/v21.0/${oversize}`])
  })
})

describe('SIGTERM to the compiled binary while a picture is being downloaded', () => {
  test('it exits without waiting for the file, answers the webhook 503, and the re-sent webhook after the restart stores the message once', async () => {
    const graph = fakeGraphApi()
    const env = { PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url }
    const app = testApp(env)
    try {
      const chat = await setUpChatappChat(app, graph)
      await app.stopApp()
      const mediaId = graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png')
      graph.hangMediaFile(mediaId, HANG_MS)
      const body = userMessage(chat, USER, image(mediaId, 'the dent'))
      // As testApp's serveFromBinary starts it, on the same database.
      const environment = { PARLEY_DATA_DIR: app.dir, PARLEY_PUBLIC_URL: 'http://parley.test', PARLEY_PUBLIC_RATE_LIMIT: '0', ...env }
      const over = (url: string) => ({
        async call(method: string, path: string, options: { rawBody?: string; headers?: Record<string, string> } = {}) {
          const response = await fetch(`${url}${path}`, { method, headers: options.headers, body: options.rawBody })
          const text = await response.text()
          return { status: response.status, body: JSON.parse(text), text, headers: response.headers }
        },
      })

      const first = await runParley([compiledParley()], environment)
      const answer = postWebhook(over(first.url), chat, body)
      for (let tries = 0; !graph.hangStarted(); tries++) {
        if (tries > 1_000) throw new Error('the media file was never requested')
        await Bun.sleep(10)
      }
      expect(await first.stop('SIGTERM')).toBe(0)
      // The process is gone before the provider's file would have answered.
      expect(graph.hangFired()).toBe(false)
      const cut = await answer
      expect([cut.status, cut.body.code]).toEqual([503, 'shutting_down'])
      expect(app.db.query('SELECT count(*) AS n FROM chatapp_inbound').get()).toEqual({ n: 0 })

      graph.stopHanging()
      const second = await runParley([compiledParley()], environment)
      try {
        const again = await postWebhook(over(second.url), chat, body)
        expect([again.status, again.body.messages]).toEqual([200, { stored: 1, duplicates: 0 }])
        const thrice = await postWebhook(over(second.url), chat, body)
        expect([thrice.status, thrice.body.messages]).toEqual([200, { stored: 0, duplicates: 1 }])
      } finally {
        await second.stop('SIGTERM')
      }
      expect(app.db.query('SELECT count(*) AS n FROM chatapp_inbound').get()).toEqual({ n: 1 })
      expect(app.db.query('SELECT count(*) AS n FROM attachments').get()).toEqual({ n: 1 })
    } finally {
      await app.close()
      graph.stop()
    }
  }, 60_000)
})
