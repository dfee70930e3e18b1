import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { closeDatabase } from '../server/db/open-database.ts'
import { fakeGraphApi } from './channels/chatapp/support/fake-graph-api.ts'
import { postWebhook, setUpChatappChat, text, userMessage } from './channels/chatapp/support/chatapp-chat.ts'
import { testApp } from './support/test-app.ts'

const graph = fakeGraphApi()
afterAll(() => graph.stop())

const nextTurnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('closing the app', () => {
  test('a delivery claimed in a batch that is still open is sent or left pending, and no transaction is left open', async () => {
    const app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })
    const chat = await setUpChatappChat(app, graph)
    expect((await postWebhook(app, chat, userMessage(chat, '447911123456', text('hello')))).status).toBe(200)
    // Wait for the moment the outbox has claimed the bot's answer in a batch not yet committed.
    const claimedInOpenBatch = () =>
      app.db.inTransaction && (app.db.query<{ n: number }, []>('SELECT count(*) AS n FROM outbox WHERE attempts > 0').get()?.n ?? 0) > 0
    for (let turn = 0; turn < 100 && !claimedInOpenBatch(); turn++) await nextTurnOfTheLoop()
    expect(claimedInOpenBatch()).toBe(true)

    await app.stopApp()

    expect(app.db.inTransaction).toBe(false)
    const unsettled = app.db
      .query<{ n: number }, []>("SELECT count(*) AS n FROM outbox WHERE kind = 'chatapp' AND status NOT IN ('pending', 'delivered')")
      .get()?.n
    expect(unsettled).toBe(0)
    expect(() => closeDatabase(app.db)).not.toThrow()
    rmSync(app.dir, { recursive: true, force: true })
  })
})
