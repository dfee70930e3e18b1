import { afterEach, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Webhook } from 'standardwebhooks'
import { WebhookEvent } from '../../../server/channels/rest-api/model.ts'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { SAMPLE } from '../../attachments/sample-files.ts'
import { deskUpload } from '../../desk/support/desk-upload.ts'
import { testApp } from '../../support/test-app.ts'
import { webhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import { publicParley } from './support/public-parley.ts'
import { setUpRestApiChat } from './support/rest-api-chat.ts'

const ALLOW = { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' }
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Hands over at once; a file is read as `[image] name` or `[file] name`, which `match` can route. */
const FILE_FLOW: ConversationFlow = {
  version: 1,
  start: 'ask',
  states: {
    ask: {
      say: [{ text: 'Send us a photo of the damage.' }],
      on: [{ match: '^\\[image\\] ', to: 'thanks' }, { to: 'ask' }],
    },
    thanks: { say: [{ text: 'Got your photo, thanks.' }], end: true },
  },
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

describe("an agent's file reaches the rest-api webhook", () => {
  test('message.created carries the media content with the absolute address, signed, and the receiver can download the file there', async () => {
    const server = publicParley(ALLOW)
    cleanups.push(() => server.stop())
    const receiver = webhookReceiver()
    cleanups.push(() => receiver.stop())
    const downloads: { status: number; type: string | null; bytes: Uint8Array }[] = []
    // A customer's backend that fetches each file it is told about.
    receiver.otherwise(async (got) => {
      const url = got.json?.data?.message?.content?.media?.url
      if (typeof url === 'string') {
        const answer = await fetch(url)
        downloads.push({ status: answer.status, type: answer.headers.get('content-type'), bytes: new Uint8Array(await answer.arrayBuffer()) })
      }
      return new Response(null, { status: 204 })
    })
    const chat = await setUpRestApiChat(server, receiver.url)
    const first = await server.call('POST', chat.path('/integrations/rest-api/messages'), { body: { user_id: 'user-1', text: 'hello' } })
    expect(first.status).toBe(202)
    await receiver.waitFor(2)

    const upload = await deskUpload(server, first.body.conversation_id, SAMPLE.pdf, { filename: 'label.pdf' })
    expect(upload.status).toBe(201)
    const sent = upload.body as { id: string }
    await receiver.waitFor(4)
    await Bun.sleep(50)

    const events = receiver.events()
    const created = events.find((event) => event.type === 'message.created' && event.data.message.id === sent.id)
    expect(created.data.message).toMatchObject({ role: 'agent', content: { kind: 'media', media: { type: 'file', filename: 'label.pdf' } } })
    expect(created.data.message.content.media.url).toStartWith(`${server.origin}/attachments/`)
    const raw = receiver.received.find((got) => got.json === created)!
    expect(new Webhook(chat.secret).verify(raw.body, raw.headers)).toEqual(created)
    expect(Value.Check(WebhookEvent, created)).toBe(true)
    expect(downloads).toEqual([{ status: 200, type: 'application/pdf', bytes: SAMPLE.pdf }])
  })
})

describe('a user\'s file through POST .../integrations/rest-api/messages', () => {
  function appWithFileFlow(env: Record<string, string> = {}) {
    const app = testApp({ ...ALLOW, ...env })
    cleanups.push(() => app.close())
    return app
  }
  const messages = (chatbotId: string) => `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/messages`

  test('is stored as a media message the flow reads as [image] name or [file] name; the address serves the bytes', async () => {
    const app = appWithFileFlow()
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook', { flow: FILE_FLOW })
    const say = async (body: Record<string, unknown>) => {
      const answer = await app.call('POST', messages(chat.chatbotId), { body: { user_id: 'user-1', ...body } })
      expect(answer.status).toBe(202)
      await Bun.sleep(5)
      return answer.body
    }
    const opened = await say({ text: 'hello' })
    const lastText = () => app.services.conversations.history(opened.conversation_id).messages.at(-1)?.content
    expect(lastText()).toEqual({ kind: 'text', text: 'Send us a photo of the damage.' })
    const pdf = await say({ attachment: { filename: 'report.pdf', data: base64(SAMPLE.pdf) } })
    expect(pdf.message).toMatchObject({ role: 'visitor', content: { kind: 'media', media: { type: 'file', filename: 'report.pdf' } } })
    // "[file] report.pdf" does not match the flow's ^\[image\] : asked again.
    expect(lastText()).toEqual({ kind: 'text', text: 'Send us a photo of the damage.' })
    const png = await say({ attachment: { filename: 'dent.png', data: base64(SAMPLE.png) }, client_id: 'f-1' })
    expect(png).toMatchObject({ conversation_id: opened.conversation_id, message: { role: 'visitor', client_id: 'f-1', content: { kind: 'media', media: { type: 'image', filename: 'dent.png' } } } })
    expect(lastText()).toEqual({ kind: 'text', text: 'Got your photo, thanks.' })
    const served = await app.fetch(new Request(`http://localhost${new URL(png.message.content.media.url).pathname}`))
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(SAMPLE.png)
  })

  test('a retry with the same client_id stores neither the message nor the file again', async () => {
    const app = appWithFileFlow()
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook', { flow: FILE_FLOW })
    const body = { user_id: 'user-2', attachment: { filename: 'a.pdf', data: base64(SAMPLE.pdf) }, client_id: 'same' }
    const first = await app.call('POST', messages(chat.chatbotId), { body })
    await Bun.sleep(5)
    const again = await app.call('POST', messages(chat.chatbotId), { body })
    expect(again.status).toBe(202)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body.message).toEqual(first.body.message)
    await Bun.sleep(5)
    expect(app.db.query('SELECT count(*) AS n FROM attachments WHERE conversation_id = ?').get(first.body.conversation_id)).toEqual({ n: 1 })
  })

  test('refusals: an SVG is 415, bad base64 is 422 on /attachment/data, text and attachment together is 422; nothing is stored', async () => {
    const app = appWithFileFlow()
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook', { flow: FILE_FLOW })
    const svg = await app.call('POST', messages(chat.chatbotId), { body: { user_id: 'user-3', attachment: { filename: 'x.png', data: base64(SAMPLE.svg) }, contact_details: { plan: 'pro' } } })
    expect(svg.status).toBe(415)
    expect(svg.body).toMatchObject({ code: 'attachment_type_refused' })
    const garbled = await app.call('POST', messages(chat.chatbotId), { body: { user_id: 'user-3', attachment: { filename: 'x.png', data: 'not base64!' } } })
    expect(garbled.status).toBe(422)
    expect(garbled.body.errors.map((error: { path: string }) => error.path)).toEqual(['/attachment/data'])
    const both = await app.call('POST', messages(chat.chatbotId), { body: { user_id: 'user-3', text: 'hi', attachment: { filename: 'x.png', data: base64(SAMPLE.png) } } })
    expect(both.status).toBe(422)
    expect(both.body.errors.map((error: { path: string }) => error.path)).toEqual(['/text', '/attachment'])
    await Bun.sleep(5)
    expect(app.db.query('SELECT count(*) AS n FROM attachments').get()).toEqual({ n: 0 })
    expect((await app.call('GET', chat.path('/conversations'))).body.total).toBe(0)
    // Not even the details that came with the refused file (docs/rest-api-channel.md).
    const details = app.db.query<{ details: string }, [string]>('SELECT details FROM contacts WHERE chatbot_id = ?').all(chat.chatbotId)
    expect(details.map((row) => JSON.parse(row.details).plan)).not.toContain('pro')
    // Nor a contact for a user whose only message was a refused file.
    expect(app.db.query('SELECT count(*) AS n FROM contacts WHERE chatbot_id = ?').get(chat.chatbotId)).toEqual({ n: 0 })
  })

  test('a file over PARLEY_ATTACHMENT_MAX_BYTES is 413 attachment_too_large', async () => {
    const app = appWithFileFlow({ PARLEY_ATTACHMENT_MAX_BYTES: '2048' })
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook', { flow: FILE_FLOW })
    const big = new Uint8Array(4096)
    big.set(SAMPLE.png)
    const refused = await app.call('POST', messages(chat.chatbotId), { body: { user_id: 'user-4', attachment: { filename: 'big.png', data: base64(big) } } })
    expect(refused.status).toBe(413)
    expect(refused.body.code).toBe('attachment_too_large')
    // The body's own limit is the room such a file takes in base64 (and the JSON around it), not the API's 1 MiB.
    const body = await app.call('POST', messages(chat.chatbotId), { body: { user_id: 'user-4', attachment: { filename: 'big.png', data: 'A'.repeat(128 * 1024) } } })
    expect(body.status).toBe(413)
    expect(body.body.code).toBe('payload_too_large')
  })
})
