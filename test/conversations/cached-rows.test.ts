import { afterEach, describe, expect, test } from 'bun:test'
import type { ChannelContext } from '../../server/conversations/service.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

const apps: TestApp[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

/** A chatbot whose published flow keeps the visitor's last words in its state. */
async function chattingApp() {
  const app = testApp()
  apps.push(app)
  const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Cache bot' } })).body
  const flow = (
    await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, {
      body: {
        name: 'Echo',
        type: 'conversation',
        flow: {
          version: 1,
          start: 'listen',
          variables: { last: { type: 'string' } },
          states: { listen: { say: [{ text: 'Say something, {{contact.plan}} customer.' }], capture: { var: 'last', as: 'text' }, next: 'listen' } },
        },
      },
    })
  ).body
  await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${flow.id}/publish`)
  const ctx: ChannelContext = { chatbotId: bot.id, channel: 'web', integrationId: null }
  const { conversations, visitors } = app.services
  const contact = visitors.ensureContact(bot.id, { externalId: null, tokenHash: 'visitor-hash' })
  const conversation = conversations.open(ctx, contact.id, null)
  const say = (text: string) => conversations.visitorSays(conversations.get(conversation.id)!, { content: { kind: 'text', text } }, ctx)
  const stored = () =>
    app.db.query<{ state: string | null; status: 'bot' | 'handoff' | 'closed'; last_message_at: string }, [string]>('SELECT state, status, last_message_at FROM conversations WHERE id = ?').get(conversation.id)
  const committed = () => new Promise((resolve) => setImmediate(resolve))
  const lastBotText = () =>
    JSON.parse(app.db.query<{ content: string }, []>("SELECT content FROM messages WHERE role = 'bot' ORDER BY rowid DESC LIMIT 1").get()!.content).text
  return { app, bot, contact, conversation, say, stored, committed, lastBotText }
}

describe('conversations and contacts read from memory stay what the database holds', () => {
  test('each turn is seen by the next read of its conversation', async () => {
    const { app, conversation, say, stored } = await chattingApp()
    say('first words')
    say('second words')
    const read = app.services.conversations.get(conversation.id)!
    expect(JSON.parse(read.state!).variables.last).toBe('second words')
    expect({ state: read.state, status: read.status, last_message_at: read.last_message_at }).toEqual(stored()!)
  })

  test('what a caller does to a conversation it was given does not change the next read', async () => {
    const { app, conversation } = await chattingApp()
    const read = app.services.conversations.get(conversation.id)!
    read.status = 'closed'
    expect(app.services.conversations.get(conversation.id)!.status).toBe('bot')
  })

  test('a turn rolled back by a database failure is not seen afterwards', async () => {
    const { app, conversation, say, stored, committed } = await chattingApp()
    say('kept')
    await committed()
    app.db.exec(`CREATE TRIGGER refuse_boom BEFORE INSERT ON messages WHEN json_extract(NEW.content, '$.text') = 'boom'
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`)
    expect(() => say('boom')).toThrow('refused by the test')
    const read = app.services.conversations.get(conversation.id)!
    expect(JSON.parse(read.state!).variables.last).toBe('kept')
    expect(read.state).toBe(stored()!.state)
  })

  test("a contact's first message is seen by the next read of the contact", async () => {
    const { app, contact, say } = await chattingApp()
    expect(app.services.visitors.hasSpoken(contact.id)).toBe(false)
    say('hello')
    expect(app.services.visitors.hasSpoken(contact.id)).toBe(true)
  })

  test("contact details merged after a turn reach the bot's next turn", async () => {
    const { app, contact, say, lastBotText } = await chattingApp()
    say('hello')
    expect(lastBotText()).toBe('Say something,  customer.')
    app.services.visitors.mergeDetails(contact.id, { plan: 'pro' })
    say('again')
    expect(lastBotText()).toBe('Say something, pro customer.')
  })

  test("deleting the chatbot forgets its conversations", async () => {
    const { app, bot, conversation } = await chattingApp()
    expect(app.services.conversations.get(conversation.id)).toBeDefined()
    expect((await app.call('DELETE', `/api/dev/v1/chatbots/${bot.id}`)).status).toBe(204)
    expect(app.services.conversations.get(conversation.id)).toBeUndefined()
  })
})

describe('new conversations start where the chatbot points now, their flow read from memory', () => {
  test('a republished flow starts the next conversation on the new version; running ones stay on theirs', async () => {
    const { app, bot, contact, conversation } = await chattingApp()
    const flowId = (await app.call('GET', `/api/dev/v1/chatbots/${bot.id}/flows`)).body.items[0].id
    const greeting = (id: string) =>
      app.db
        .query<{ content: string }, [string]>("SELECT content FROM messages WHERE conversation_id = ? AND role = 'bot' ORDER BY rowid LIMIT 1")
        .all(id)
        .map((row) => JSON.parse(row.content).text)[0]
    await app.call('PATCH', `/api/dev/v1/chatbots/${bot.id}/flows/${flowId}`, {
      body: { flow: { version: 1, start: 'hello', states: { hello: { say: [{ text: 'Version two speaking.' }], end: true } } } },
    })
    expect((await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${flowId}/publish`)).status).toBe(200)
    await new Promise((resolve) => setImmediate(resolve))
    const ctx: ChannelContext = { chatbotId: bot.id, channel: 'web', integrationId: null }
    const next = app.services.conversations.open(ctx, contact.id, null)
    await new Promise((resolve) => setImmediate(resolve))
    expect(greeting(next.id)).toBe('Version two speaking.')
    expect(app.services.conversations.get(next.id)!.flow_version).toBe(2)
    expect(app.services.conversations.get(conversation.id)!.flow_version).toBe(1)
  })

  test("a new entry flow chosen by PATCH starts the next conversation, even right after one began on the old", async () => {
    const { app, bot, contact } = await chattingApp()
    const other = (
      await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, {
        body: { name: 'Other', type: 'conversation', flow: { version: 1, start: 'hi', states: { hi: { say: [{ text: 'The other flow.' }], end: true } } } },
      })
    ).body
    await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${other.id}/publish`)
    const ctx: ChannelContext = { chatbotId: bot.id, channel: 'web', integrationId: null }
    // The newest published flow is the entry while none is chosen; it is read and kept now.
    expect(app.services.conversations.open(ctx, contact.id, null).flow_id).toBe(other.id)
    const first = (await app.call('GET', `/api/dev/v1/chatbots/${bot.id}/flows`)).body.items.find((flow: { id: string }) => flow.id !== other.id).id
    expect((await app.call('PATCH', `/api/dev/v1/chatbots/${bot.id}`, { body: { entry_flow_id: first } })).status).toBe(200)
    expect(app.services.conversations.open(ctx, contact.id, null).flow_id).toBe(first)
    await app.call('DELETE', `/api/dev/v1/chatbots/${bot.id}/flows/${first}`)
    expect(app.services.conversations.open(ctx, contact.id, null).flow_id).toBe(other.id)
  })

  test('an entry flow read inside a batch that is then rolled back is not kept', async () => {
    const { app, bot, contact, say, committed } = await chattingApp()
    const first = (await app.call('GET', `/api/dev/v1/chatbots/${bot.id}/flows`)).body.items[0].id
    const other = (
      await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, {
        body: { name: 'Other', type: 'conversation', flow: { version: 1, start: 'hi', states: { hi: { say: [{ text: 'The other flow.' }], end: true } } } },
      })
    ).body
    await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${other.id}/publish`)
    expect((await app.call('PATCH', `/api/dev/v1/chatbots/${bot.id}`, { body: { entry_flow_id: first } })).status).toBe(200)
    await committed()
    app.db.exec(`CREATE TRIGGER refuse_boom BEFORE INSERT ON messages WHEN json_extract(NEW.content, '$.text') = 'boom'
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`)
    const ctx: ChannelContext = { chatbotId: bot.id, channel: 'web', integrationId: null }
    // In one batch: the entry flow changed, a conversation started on it, then a failing write.
    say('opens the batch')
    app.db.run('UPDATE chatbots SET entry_flow_id = ? WHERE id = ?', [other.id, bot.id])
    expect(app.services.conversations.open(ctx, contact.id, null).flow_id).toBe(other.id)
    expect(() => say('boom')).toThrow('refused by the test')
    expect(app.services.conversations.open(ctx, contact.id, null).flow_id).toBe(first)
  })
})
