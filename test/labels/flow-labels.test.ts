import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { openConversation, flush } from '../desk/support/desk-context.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

/** A flow that labels a conversation from what the visitor says, and routes on a label an agent set. */
const LABELLING: ConversationFlow = {
  version: 1,
  start: 'route',
  states: {
    route: { branch: [{ label: 'vip', to: 'vip' }, { to: 'menu' }] },
    vip: { say: [{ text: 'Welcome back, VIP' }], on: [{ to: 'menu' }] },
    menu: { say: [{ text: 'How can I help?' }], on: [{ match: '(?i)refund', to: 'refund' }, { match: '(?i)done', to: 'done' }, { match: '(?i)again', to: 'route' }, { to: 'menu' }] },
    refund: { say: [{ text: 'Refunds: noted' }], labels: { add: ['Billing', 'refund request'] }, next: 'menu' },
    done: { labels: { remove: ['refund request'] }, say: [{ text: 'Done' }], end: true },
  },
}

describe('flows label conversations and branch on their labels', () => {
  let app: TestApp
  let chat: WebChat
  const names = async (conversationId: string) =>
    (await app.call('GET', `/api/dev/v1/desk/conversations/${conversationId}/labels`)).body.items.map((label: { name: string; color: string }) => `${label.name}:${label.color}`)
  const say = (opened: ReturnType<typeof openConversation>, text: string) =>
    app.services.conversations.visitorSays(opened.conversation, { clientId: crypto.randomUUID(), content: { kind: 'text', text } }, opened.ctx)
  const botLines = async (conversationId: string) =>
    (await app.call('GET', `/api/dev/v1/desk/conversations/${conversationId}/timeline`)).body.items
      .filter((item: { type: string; message?: { role: string } }) => item.type === 'message' && item.message?.role === 'bot')
      .map((item: { message: { content: { text: string } } }) => item.message.content.text)

  beforeAll(async () => {
    app = testApp()
    chat = await setUpWebChat(app, { flow: LABELLING })
    await app.call('POST', '/api/dev/v1/labels', { body: { name: 'BILLING', color: 'orange' } })
  })
  afterAll(() => app.close())

  test("a state's labels are set in the turn: an existing label by name in any case, a new name made grey", async () => {
    const opened = openConversation(app, chat, { says: 'I want a refund' })
    await flush()
    expect(await names(opened.id)).toEqual(['BILLING:orange', 'refund request:grey'])
    // Made once: the workspace's set holds it now, and labelling again makes no second one.
    say(opened, 'refund again')
    await flush()
    const set = (await app.call('GET', '/api/dev/v1/labels')).body.items.map((label: { name: string }) => label.name)
    expect(set).toEqual(['BILLING', 'refund request'])
    say(opened, 'done')
    await flush()
    expect(await names(opened.id)).toEqual(['BILLING:orange'])
  })

  test('a branch on a label sees the one an agent set', async () => {
    const vip = (await app.call('POST', '/api/dev/v1/labels', { body: { name: 'VIP' } })).body
    const opened = openConversation(app, chat, { says: 'hello' })
    await flush()
    expect(await botLines(opened.id)).not.toContain('Welcome back, VIP')
    // An agent labels it; the next time the flow passes the branch, it sees the label.
    await app.call('PUT', `/api/dev/v1/desk/conversations/${opened.id}/labels/${vip.id}`)
    say(opened, 'again')
    await flush()
    expect((await botLines(opened.id)).at(-1)).toBe('Welcome back, VIP')
  })

  test("a person's change of labels tells open desks to fetch the row again (the desk feed)", async () => {
    const opened = openConversation(app, chat, { says: 'hello' })
    await flush()
    const vip = (await app.call('GET', '/api/dev/v1/labels')).body.items.find((label: { name: string }) => label.name === 'VIP')
    const before = app.services.feed.head(app.workspaceId)
    await app.call('PUT', `/api/dev/v1/desk/conversations/${opened.id}/labels/${vip.id}`)
    await flush()
    const caught = app.services.feed.catchUp(app.workspaceId, before)
    expect('entries' in caught && caught.entries).toContainEqual(
      expect.objectContaining({ type: 'conversation', conversation_id: opened.id, change: 'labels', status: 'bot' }),
    )
  })
})
