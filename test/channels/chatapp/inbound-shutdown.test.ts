import { afterEach, describe, expect, test } from 'bun:test'
import { createApp } from '../../../server/app.ts'
import { createLogger, memorySink } from '../../../server/support/logger.ts'
import { SAMPLE } from '../../attachments/sample-files.ts'
import { postWebhook, setUpChatappChat, userMessage } from './support/chatapp-chat.ts'
import { type ChatappTestbed, chatappTestbed, USER } from './support/chatapp-test.ts'

let bed: ChatappTestbed | null = null
afterEach(async () => {
  await bed?.close()
  bed = null
})

/** Longer than a prompt shutdown, shorter than Parley's own 8 s download timeout: the old code got the file and stored it. */
const HANG_MS = 7_000

const image = (id: string) => ({ type: 'image', image: { id, mime_type: 'image/png', caption: 'the dent' } })
const count = (b: ChatappTestbed, table: string) => (b.app.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n

describe('a shutdown while a picture is being downloaded', () => {
  test('cuts the download short, answers 503 so the provider sends it again, stores nothing; the re-sent webhook after the restart stores it once', async () => {
    const b = (bed = chatappTestbed())
    const chat = await setUpChatappChat(b.app, b.graph)
    const mediaId = b.graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png')
    b.graph.hangMediaFile(mediaId, HANG_MS)
    const body = userMessage(chat, USER, image(mediaId))

    const answer = postWebhook(b.app, chat, body)
    for (let tries = 0; !b.graph.hangStarted(); tries++) {
      if (tries > 500) throw new Error('the media file was never requested')
      await Bun.sleep(10)
    }
    await b.app.stopApp()
    const cut = await answer
    // Answered before the provider's hanging file would have answered: the shutdown did not wait for it.
    expect(b.graph.hangFired()).toBe(false)
    expect(cut.status).toBe(503)
    expect(cut.body).toMatchObject({ code: 'shutting_down' })
    expect(cut.headers?.get('retry-after')).toBe('5')
    expect([count(b, 'chatapp_inbound'), count(b, 'attachments'), count(b, "messages WHERE role = 'visitor'")]).toEqual([0, 0, 0])

    // Parley starts again on the same database; the provider, still without its 2xx, sends the webhook again (twice).
    b.graph.stopHanging()
    const restarted = createApp({ db: b.app.db, config: b.app.config, logger: createLogger('debug', memorySink()), tuning: { outbox: { time: b.time, random: () => 0.5 } } })
    try {
      const caller = {
        async call(method: string, path: string, options: { rawBody?: string; headers?: Record<string, string> } = {}) {
          const response = await restarted.fetch(new Request(`http://localhost${path}`, { method, headers: options.headers, body: options.rawBody }))
          const text = await response.text()
          return { status: response.status, body: JSON.parse(text), text }
        },
      }
      const again = await postWebhook(caller, chat, body)
      expect([again.status, again.body.messages]).toEqual([200, { stored: 1, duplicates: 0 }])
      const thrice = await postWebhook(caller, chat, body)
      expect([thrice.status, thrice.body.messages]).toEqual([200, { stored: 0, duplicates: 1 }])
      expect([count(b, 'chatapp_inbound'), count(b, 'attachments'), count(b, "messages WHERE role = 'visitor'")]).toEqual([1, 1, 1])
    } finally {
      await restarted.close()
    }
  })
})
