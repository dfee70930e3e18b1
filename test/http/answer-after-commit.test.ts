import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type TestApp, testApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { setUpRestApiChat } from '../channels/rest-api/support/rest-api-chat.ts'
import { setUpChatappChat, text, userMessage } from '../channels/chatapp/support/chatapp-chat.ts'

/**
 * A write's success answer must mean stored: looked at from a second connection to the same
 * file at the moment the answer arrives (before its body is even read), the write is there.
 * With the old early answer it was not yet: the batch committed a turn of the event loop later.
 */

let app: TestApp
let reader: Database
afterEach(async () => {
  reader?.close()
  await app.close()
})

function start(): void {
  app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  reader = new Database(join(app.dir, 'parley.db'), { readonly: true })
}

/** Sends a request to the app and hands over the response as soon as it exists. */
function send(method: string, path: string, body: unknown, key: string | null = app.key): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key) headers.authorization = `Bearer ${key}`
  return Promise.resolve(app.fetch(new Request(`http://localhost${path}`, { method, headers, body: JSON.stringify(body) })))
}

/** Messages with this text in them, as another connection sees the file now. */
const storedWith = (needle: string) =>
  reader.query<{ n: number }, [string]>('SELECT count(*) AS n FROM messages WHERE content LIKE ?').get(`%${needle}%`)!.n

async function webConversation(): Promise<{ chatbotId: string; conversationId: string }> {
  const chat = await setUpWebChat(app)
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: crypto.randomUUID() })
  const conversation = app.services.conversations.open({ chatbotId: chat.chatbotId, channel: 'web', integrationId: chat.integrationId }, contact.id, null)
  await Bun.sleep(1)
  return { chatbotId: chat.chatbotId, conversationId: conversation.id }
}

/**
 * Makes the database refuse to commit any batch that stores a message containing "doomed":
 * a deferred foreign key is checked by COMMIT itself, so the writes succeed and the commit fails.
 */
function refuseToCommit(): void {
  app.db.exec(`
    CREATE TABLE test_anchor (id INTEGER PRIMARY KEY);
    CREATE TABLE test_orphan (anchor_id INTEGER REFERENCES test_anchor (id) DEFERRABLE INITIALLY DEFERRED);
    CREATE TRIGGER test_doom AFTER INSERT ON messages WHEN NEW.content LIKE '%doomed%'
      BEGIN INSERT INTO test_orphan VALUES (42); END;
  `)
}

describe('a write is answered only once it is committed', () => {
  test("an agent's message: the 201 arrives with the message already stored", async () => {
    start()
    const { chatbotId, conversationId } = await webConversation()
    const response = await send('POST', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}/messages`, { text: 'agent-says-hello' })
    const seen = storedWith('agent-says-hello')
    expect(response.status).toBe(201)
    expect(seen).toBe(1)
  })

  test('a status change: the 200 arrives with the new status already stored', async () => {
    start()
    const { chatbotId, conversationId } = await webConversation()
    const response = await send('PATCH', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}`, { status: 'closed' })
    const status = reader.query<{ status: string }, [string]>('SELECT status FROM conversations WHERE id = ?').get(conversationId)?.status
    expect(response.status).toBe(200)
    expect(status).toBe('closed')
  })

  test("a rest-api user's message: the 202 arrives with the message already stored", async () => {
    start()
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook')
    const response = await send('POST', chat.path('/integrations/rest-api/messages'), { user_id: 'user-1', text: 'api-says-hello', client_id: 'c-1' })
    const seen = storedWith('api-says-hello')
    expect(response.status).toBe(202)
    expect(seen).toBe(1)
  })

  test("a chatapp webhook: the provider's 200 arrives with the user's message already stored", async () => {
    start()
    const chat = await setUpChatappChat(app, null)
    const response = await send('POST', chat.hookPath, userMessage(chat, '447911123456', text('hook-says-hello')), null)
    const seen = storedWith('hook-says-hello')
    const inbound = reader.query<{ n: number }, []>('SELECT count(*) AS n FROM chatapp_inbound').get()!.n
    expect(response.status).toBe(200)
    expect(seen).toBe(1)
    expect(inbound).toBe(1)
  })
})

describe('a write whose batch cannot be committed is answered 503, never as a success', () => {
  test("an agent's message: 503 not_stored with the request id, nothing stored, and the log says why", async () => {
    start()
    const { chatbotId, conversationId } = await webConversation()
    refuseToCommit()
    const response = await send('POST', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}/messages`, { text: 'doomed agent' })
    expect(response.status).toBe(503)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ status: 503, code: 'not_stored', request_id: response.headers.get('x-request-id') })
    expect(storedWith('doomed')).toBe(0)
    expect(app.logLines.some((line) => line.includes('batch commit failed'))).toBe(true)
    expect(app.logLines.some((line) => line.includes('answer withheld') && line.includes(String(body.request_id)))).toBe(true)

    // The database works again for what it can commit: the next message is stored and answered 201.
    const next = await send('POST', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversationId}/messages`, { text: 'fine again' })
    expect(next.status).toBe(201)
    expect(storedWith('fine again')).toBe(1)
  })

  test("a rest-api user's message: 503, and sending it again with its client_id stores it once", async () => {
    start()
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/hook')
    refuseToCommit()
    const path = chat.path('/integrations/rest-api/messages')
    const first = await send('POST', path, { user_id: 'user-1', text: 'doomed at first', client_id: 'c-1' })
    expect(first.status).toBe(503)
    expect(storedWith('doomed at first')).toBe(0)
    app.db.exec('DROP TRIGGER test_doom')
    const again = await send('POST', path, { user_id: 'user-1', text: 'doomed at first', client_id: 'c-1' })
    expect(again.status).toBe(202)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(storedWith('doomed at first')).toBe(1)
  })

  test('a chatapp webhook: 503 so that the provider sends it again, and the retry is stored', async () => {
    start()
    const chat = await setUpChatappChat(app, null)
    refuseToCommit()
    const delivery = userMessage(chat, '447911123456', text('doomed hook'))
    const first = await send('POST', chat.hookPath, delivery, null)
    expect(first.status).toBe(503)
    expect(storedWith('doomed hook')).toBe(0)
    app.db.exec('DROP TRIGGER test_doom')
    const retried = await send('POST', chat.hookPath, delivery, null)
    expect(retried.status).toBe(200)
    expect(((await retried.json()) as any).messages).toEqual({ stored: 1, duplicates: 0 })
    expect(storedWith('doomed hook')).toBe(1)
  })

  test('a write of a store that writes directly shares an open batch: when that batch fails, it answers 503 rather than 200 with its change lost', async () => {
    start()
    const { chatbotId, conversationId } = await webConversation()
    refuseToCommit()
    // A message stored in this turn of the event loop opens the batch that the rename then joins.
    const conversation = app.services.conversations.get(conversationId)!
    app.services.conversations.agentSays(conversation, 'doomed batch')
    const response = await send('PATCH', `/api/dev/v1/chatbots/${chatbotId}`, { name: 'Renamed' })
    const name = reader.query<{ name: string }, [string]>('SELECT name FROM chatbots WHERE id = ?').get(chatbotId)?.name
    expect(name).not.toBe('Renamed')
    expect(response.status).toBe(503)

    const again = await send('PATCH', `/api/dev/v1/chatbots/${chatbotId}`, { name: 'Renamed' })
    expect(again.status).toBe(200)
    expect(reader.query<{ name: string }, [string]>('SELECT name FROM chatbots WHERE id = ?').get(chatbotId)?.name).toBe('Renamed')
  })
})
