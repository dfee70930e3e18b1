import { afterAll, expect, test } from 'bun:test'
import { testApp } from '../../support/test-app.ts'
import { setUpRestApiChat } from './support/rest-api-chat.ts'

const app = testApp()
afterAll(() => app.close())

/** What the inbound endpoint reads before it writes is awaited: one user's messages sent at once must still read each other's writes. */
test("one user's messages sent at once: one conversation, and a client_id stored once", async () => {
  const chat = await setUpRestApiChat(app, 'https://example.com/parley-hook')
  const send = (body: Record<string, unknown>) => app.call('POST', chat.path('/integrations/rest-api/messages'), { body: { user_id: 'at-once', ...body } })
  const first = await Promise.all([send({ text: 'one', client_id: 'a' }), send({ text: 'two', client_id: 'b' }), send({ text: 'one', client_id: 'a' })])
  expect(first.map((answer) => answer.status)).toEqual([202, 202, 202])
  expect(new Set(first.map((answer) => answer.body.conversation_id)).size).toBe(1)
  expect(first.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, null, 'true'])
  expect(first[2]?.body.message.id).toBe(first[0]?.body.message.id)
  const stored = app.db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM messages WHERE client_id IS NOT NULL AND conversation_id = ?").get(first[0]?.body.conversation_id)
  expect(stored?.n).toBe(2)
})
