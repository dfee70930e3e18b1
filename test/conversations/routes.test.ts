import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'

interface Ctx {
  chat: WebChat
  conversationId: string
  otherKey: string
  otherChat: WebChat
  otherConversationId: string
}

/** Opens a web conversation the way the socket does, without a socket: through the services. */
function openConversation(app: TestApp, chat: WebChat, details: Record<string, string> = {}) {
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: crypto.randomUUID() })
  app.services.visitors.mergeDetails(contact.id, details)
  const ctx = { chatbotId: chat.chatbotId, channel: 'web' as const, integrationId: chat.integrationId }
  const conversation = app.services.conversations.open(ctx, contact.id, 'Hello!')
  app.services.conversations.visitorSays(conversation, { clientId: 'c1', content: { kind: 'text', text: 'pricing' } }, ctx)
  return conversation.id
}

const base = (c: Ctx) => `/api/dev/v1/chatbots/${c.chat.chatbotId}/conversations`

scenarios<Ctx>(
  'conversations API',
  async (app) => {
    const chat = await setUpWebChat(app)
    const conversationId = openConversation(app, chat, { plan: 'pro' })
    openConversation(app, chat)
    const otherKey = app.otherWorkspaceKey()
    const otherChat = await setUpWebChat(app, { key: otherKey })
    return { chat, conversationId, otherKey, otherChat, otherConversationId: openConversation(app, otherChat) }
  },
  [
    {
      name: 'lists a chatbot\'s conversations, most recently active first',
      method: 'GET',
      path: base,
      status: 200,
      check: ({ body }, c) => {
        expect(body.total).toBe(2)
        expect(body.items[1]).toEqual({
          id: c.conversationId,
          chatbot_id: c.chat.chatbotId,
          contact_id: expect.any(String),
          channel: 'web',
          integration_id: c.chat.integrationId,
          flow_id: c.chat.flowId,
          flow_version: 1,
          status: 'bot',
          created_at: expect.any(String),
          updated_at: expect.any(String),
          last_message_at: expect.any(String),
        })
      },
    },
    { name: 'filters by status', method: 'GET', path: (c) => `${base(c)}?status=closed`, status: 200, check: ({ body }) => expect(body.total).toBe(0) },
    { name: 'filters by channel', method: 'GET', path: (c) => `${base(c)}?channel=web&limit=1`, status: 200, check: ({ body }) => expect(body).toMatchObject({ total: 2, items: [expect.any(Object)] }) },
    { name: 'filters by contact', method: 'GET', path: (c) => `${base(c)}?contact_id=nobody`, status: 200, check: ({ body }) => expect(body.total).toBe(0) },
    { name: 'an unknown status filter is refused', method: 'GET', path: (c) => `${base(c)}?status=open`, status: 422, errorPaths: ['/status'] },
    { name: 'an unknown channel filter is refused', method: 'GET', path: (c) => `${base(c)}?channel=sms`, status: 422, errorPaths: ['/channel'] },
    {
      name: 'one conversation shows its contact and contact details',
      method: 'GET',
      path: (c) => `${base(c)}/${c.conversationId}`,
      status: 200,
      check: ({ body }) => {
        expect(body.contact).toEqual({ id: body.contact_id, external_id: null, details: { plan: 'pro' }, locale: null, created_at: expect.any(String), updated_at: expect.any(String) })
        expect(body).not.toHaveProperty('state')
      },
    },
    {
      name: 'messages are listed oldest first, paginated',
      method: 'GET',
      path: (c) => `${base(c)}/${c.conversationId}/messages?limit=2`,
      status: 200,
      check: ({ body }) => {
        expect(body.total).toBe(5)
        expect(body.items.map((m: { content: { text: string } }) => m.content.text)).toEqual(['Hello!', 'Hi! How can I help?'])
      },
    },
    {
      name: 'an agent posts a message: 201, and the conversation goes to handoff',
      method: 'POST',
      path: (c) => `${base(c)}/${c.conversationId}/messages`,
      body: { text: 'Hi, this is Sam.', author: 'Sam' },
      status: 201,
      check: ({ body }) => expect(body).toMatchObject({ role: 'agent', author: 'Sam', content: { kind: 'text', text: 'Hi, this is Sam.' } }),
    },
    {
      name: 'the status is now handoff',
      method: 'GET',
      path: (c) => `${base(c)}/${c.conversationId}`,
      status: 200,
      check: ({ body }) => expect(body.status).toBe('handoff'),
    },
    { name: 'an agent message needs text', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/messages`, body: {}, status: 422, errorPaths: ['/text'] },
    { name: 'an agent message over 4096 characters is refused', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/messages`, body: { text: 'x'.repeat(4097) }, status: 422, errorPaths: ['/text'] },
    { name: 'unknown fields are refused', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/messages`, body: { text: 'x', role: 'bot' }, status: 422, errorPaths: ['/role'] },
    {
      name: "an agent message carries the agent's avatar: an https image address",
      method: 'POST',
      path: (c) => `${base(c)}/${c.conversationId}/messages`,
      body: { text: 'Hi', author: 'Maya', author_avatar_url: 'https://cdn.example.com/team/maya.png?v=2' },
      status: 201,
      check: ({ body }) => expect(body).toMatchObject({ author: 'Maya', author_avatar_url: 'https://cdn.example.com/team/maya.png?v=2' }),
    },
    { name: 'an agent message without an avatar has no author_avatar_url', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/messages`, body: { text: 'Hi', author: 'Maya' }, status: 201, check: ({ body }) => expect(body.author_avatar_url).toBeUndefined() },
    ...[
      ['http', 'http://cdn.example.com/maya.png'],
      ['javascript:', 'javascript:alert(1)'],
      ['data:', 'data:image/png;base64,iVBORw0KGgo='],
      ['no host', 'https:///maya.png'],
      ['spaces', 'https://cdn.example.com/a b.png'],
      ['2049 characters', `https://cdn.example.com/${'a'.repeat(2049 - 24)}`],
    ].map(([why, url]) => ({
      name: `author_avatar_url refuses ${why}`,
      method: 'POST',
      path: (c: Ctx) => `${base(c)}/${c.conversationId}/messages`,
      body: { text: 'Hi', author_avatar_url: url },
      status: 422,
      errorPaths: ['/author_avatar_url'],
    })),
    {
      name: 'handing back to the bot',
      method: 'PATCH',
      path: (c) => `${base(c)}/${c.conversationId}`,
      body: { status: 'bot' },
      status: 200,
      check: ({ body }) => expect(body.status).toBe('bot'),
    },
    { name: 'an unknown status is refused', method: 'PATCH', path: (c) => `${base(c)}/${c.conversationId}`, body: { status: 'open' }, status: 422, errorPaths: ['/status'] },
    {
      name: 'closing',
      method: 'PATCH',
      path: (c) => `${base(c)}/${c.conversationId}`,
      body: { status: 'closed' },
      status: 200,
      check: ({ body }) => expect(body.status).toBe('closed'),
    },
    { name: 'typing is forwarded: 204', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/typing`, body: { active: true }, status: 204 },
    { name: 'typing needs a boolean', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/typing`, body: { active: 'yes' }, status: 422, errorPaths: ['/active'] },
    {
      name: 'an agent marks the conversation read up to its newest message',
      method: 'POST',
      path: (c) => `${base(c)}/${c.conversationId}/read`,
      status: 200,
      check: ({ body }) => expect(body).toEqual({ visitor: null, team: { up_to: expect.any(String), at: expect.any(String) } }),
    },
    { name: 'read: up_to must be a string', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/read`, body: { up_to: 5 }, status: 422, errorPaths: ['/up_to'] },
    { name: 'read: up_to must be a message of the conversation', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/read`, body: { up_to: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, status: 422, errorPaths: ['/up_to'] },
    { name: 'read: unknown fields are refused', method: 'POST', path: (c) => `${base(c)}/${c.conversationId}/read`, body: { up_to_all: true }, status: 422, errorPaths: ['/up_to_all'] },
    { name: 'an unknown conversation answers 404', method: 'GET', path: (c) => `${base(c)}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, status: 404, code: 'not_found' },
    { name: 'an unknown chatbot answers 404', method: 'GET', path: '/api/dev/v1/chatbots/01ARZ3NDEKTSV4RRFFQ69G5FAV/conversations', status: 404 },
    { name: 'another workspace\'s chatbot: list 404', method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations`, status: 404 },
    { name: 'another workspace\'s conversation: get 404', method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}`, status: 404 },
    { name: 'another workspace\'s conversation under my chatbot: 404', method: 'GET', path: (c) => `${base(c)}/${c.otherConversationId}`, status: 404 },
    { name: 'another workspace\'s conversation: messages 404', method: 'GET', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}/messages`, status: 404 },
    { name: 'another workspace\'s conversation: post 404', method: 'POST', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}/messages`, body: { text: 'x' }, status: 404 },
    { name: 'another workspace\'s conversation: patch 404', method: 'PATCH', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}`, body: { status: 'closed' }, status: 404 },
    { name: 'another workspace\'s conversation: read 404', method: 'POST', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}/read`, status: 404 },
    { name: 'another workspace\'s conversation: typing 404', method: 'POST', path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}/typing`, body: { active: true }, status: 404 },
    {
      name: 'the other workspace sees its own conversation, untouched',
      method: 'GET',
      path: (c) => `/api/dev/v1/chatbots/${c.otherChat.chatbotId}/conversations/${c.otherConversationId}`,
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }) => expect(body.status).toBe('bot'),
    },
  ],
)
