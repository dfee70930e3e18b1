import { expect } from 'bun:test'
import type { CallResult, TestApp } from '../../support/test-app.ts'
import { type Scenario, scenarios } from '../../support/scenarios.ts'
import { MISSING_ID, ULID } from '../../integrations/support/integration-context.ts'
import { type RestApiChat, setUpRestApiChat } from './support/rest-api-chat.ts'

interface Ctx {
  app: TestApp
  chat: RestApiChat
  /** A chatbot without a rest-api integration, and one whose integration is switched off. */
  bare: string
  inactive: RestApiChat
  otherKey: string
  saved: Record<string, any>
}

// Nothing listens there; deliveries are not what these rows look at.
const WEBHOOK = 'http://127.0.0.1:9/parley'
const messagesPath = (c: Ctx) => c.chat.path('/integrations/rest-api/messages')
const send = (name: string, body: unknown, status: number, check?: Scenario<Ctx>['check']): Scenario<Ctx> => ({ name, method: 'POST', path: messagesPath, body, status, check })
const refused = (name: string, body: unknown, errorPaths: string[]): Scenario<Ctx> => ({ name, method: 'POST', path: messagesPath, body, status: 422, code: 'validation_failed', errorPaths })

async function texts(c: Ctx, conversationId: string): Promise<string[]> {
  const { body } = await c.app.call('GET', c.chat.path(`/conversations/${conversationId}/messages?limit=200`))
  return body.items.map((m: any) => `${m.role}: ${m.content.text ?? m.content.title}`)
}

const contactOf = (result: CallResult) => result.body.contact

scenarios<Ctx>(
  'rest-api inbound messages',
  async (app) => {
    const chat = await setUpRestApiChat(app, WEBHOOK)
    const bare = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Bare' } })).body.id
    const inactive = await setUpRestApiChat(app, WEBHOOK)
    await app.call('PATCH', inactive.path('/integrations/rest-api'), { body: { is_active: false } })
    return { app, chat, bare, inactive, otherKey: app.otherWorkspaceKey(), saved: {} }
  },
  [
    send('a first message opens a conversation in the entry flow and answers 202 with the stored message', { user_id: 'user-1', text: 'pricing', client_id: 'm-1' }, 202, async (result, c) => {
      expect(result.body).toEqual({
        conversation_id: expect.stringMatching(ULID),
        contact: { id: expect.stringMatching(ULID), external_id: 'rest-api:user-1' },
        message: { id: expect.stringMatching(ULID), conversation_id: result.body.conversation_id, role: 'visitor', client_id: 'm-1', content: { kind: 'text', text: 'pricing' }, created_at: expect.any(String) },
      })
      expect(result.headers.get('idempotent-replayed')).toBeNull()
      c.saved.first = result.body
      expect(await texts(c, result.body.conversation_id)).toEqual(['visitor: pricing', 'bot: Hi! How can I help?', 'bot: Pick one', 'bot: What is your email?'])
    }),
    send('a retry with the same client_id answers the first result and stores and runs nothing', { user_id: 'user-1', text: 'pricing', client_id: 'm-1' }, 202, async (result, c) => {
      expect(result.body).toEqual(c.saved.first)
      expect(result.headers.get('idempotent-replayed')).toBe('true')
      expect(await texts(c, result.body.conversation_id)).toHaveLength(4)
    }),
    send('the next message continues the same conversation', { user_id: 'user-1', text: 'not an address', client_id: 'm-2' }, 202, async (result, c) => {
      expect(result.body.conversation_id).toBe(c.saved.first.conversation_id)
      expect((await texts(c, result.body.conversation_id)).slice(-2)).toEqual(['visitor: not an address', 'bot: That does not look like an email.'])
    }),
    send('a message without client_id is stored each time', { user_id: 'user-1', text: 'ada@lovelace.dev' }, 202, async (result, c) => {
      expect(result.body.message).not.toHaveProperty('client_id')
      expect((await texts(c, result.body.conversation_id)).slice(-1)).toEqual(['bot: Thanks, we will write to ada@lovelace.dev.'])
    }),
    send('the same client_id from another user is another message', { user_id: 'user-2', text: 'hello', client_id: 'm-1' }, 202, (result, c) => {
      expect(result.headers.get('idempotent-replayed')).toBeNull()
      expect(result.body.conversation_id).not.toBe(c.saved.first.conversation_id)
      expect(result.body.contact.external_id).toBe('rest-api:user-2')
      c.saved.user2 = result.body
    }),
    send("a reply picks one of the bot's buttons", { user_id: 'user-2', reply: { reply_to: 'button', id: 'sales', title: 'Sales' } }, 202, async (result, c) => {
      expect(result.body.message.content).toEqual({ kind: 'reply', reply_to: 'button', id: 'sales', title: 'Sales' })
      expect((await texts(c, result.body.conversation_id)).slice(-2)).toEqual(['visitor: Sales', 'bot: What is your email?'])
    }),
    {
      name: 'an agent closes the conversation',
      method: 'PATCH',
      path: (c) => c.chat.path(`/conversations/${c.saved.user2.conversation_id}`),
      body: { status: 'closed' },
      status: 200,
    },
    send('a retry after the close still answers the first result', { user_id: 'user-2', text: 'hello', client_id: 'm-1' }, 202, (result, c) => {
      expect(result.body).toEqual(c.saved.user2)
      expect(result.headers.get('idempotent-replayed')).toBe('true')
    }),
    send('the next message after a close opens a new conversation', { user_id: 'user-2', text: 'hello again' }, 202, (result, c) => {
      expect(result.body.conversation_id).not.toBe(c.saved.user2.conversation_id)
      expect(result.body.contact).toEqual(c.saved.user2.contact)
    }),

    send('an e-mail user_id is the normalised address', { user_id: 'Ada@Lovelace.DEV', text: 'hi' }, 202, (result, c) => {
      expect(contactOf(result).external_id).toBe('ada@lovelace.dev')
      c.saved.ada = contactOf(result)
    }),
    send("it is the same contact as the widget's identify() with that address", { user_id: 'ada@lovelace.dev', text: 'hi' }, 202, (result, c) => {
      const visitor = c.app.services.visitors.resolve({ chatbotId: c.chat.chatbotId, userId: 'ADA@lovelace.dev', identitySecret: null, defaultCountry: null })
      expect(visitor.ok && visitor.contact?.id).toBe(c.saved.ada.id)
      expect(contactOf(result)).toEqual(c.saved.ada)
    }),
    send('a phone user_id is normalised to E.164', { user_id: '+44 20 7946 0958', text: 'hi' }, 202, (result, c) => {
      expect(contactOf(result).external_id).toBe('+442079460958')
      c.saved.phone = contactOf(result)
    }),
    send('another spelling of the number is the same contact', { user_id: '0044 (20) 7946-0958', text: 'hi' }, 202, (result, c) => {
      expect(contactOf(result)).toEqual(c.saved.phone)
    }),
    send('a sub-address is its own contact: nothing of an address is dropped', { user_id: 'jane+doe.private@gmail.com', text: 'hi' }, 202, (result) => {
      expect(contactOf(result).external_id).toBe('jane+doe.private@gmail.com')
    }),
    send('an address longer than 100 characters is your own id, never cut into a shorter address', { user_id: `${'jane.doe.'.repeat(5)}personal@${'staff.'.repeat(4)}acme-corporation.co.uk.evil-corp.io`, text: 'hi' }, 202, (result) => {
      expect(contactOf(result).external_id).toBe(`rest-api:${'jane.doe.'.repeat(5)}personal@${'staff.'.repeat(4)}acme-corporation.co.uk.evil-corp.io`)
    }),
    send('any other user_id is your own id, kept exactly', { user_id: 'Kunde 42/Ä', text: 'hi' }, 202, (result) => {
      expect(contactOf(result).external_id).toBe('rest-api:Kunde 42/Ä')
    }),
    send('an e-mail the widget would refuse (a reserved domain) is kept as your own id', { user_id: 'sam@example.com', text: 'hi' }, 202, (result) => {
      expect(contactOf(result).external_id).toBe('rest-api:sam@example.com')
    }),
    send('contact details are merged into the contact, keys in snake_case', { user_id: 'user-3', text: 'hi', contact_details: { 'First Name': 'Ada', plan: 'pro', seats: 3, trial: false } }, 202, async (result, c) => {
      const { body } = await c.app.call('GET', c.chat.path(`/conversations/${result.body.conversation_id}`))
      expect(body.contact.details).toEqual({ first_name: 'Ada', plan: 'pro', seats: 3, trial: false })
    }),
    send('later details are merged with the earlier ones', { user_id: 'user-3', text: 'hi', contact_details: { plan: 'team' } }, 202, async (result, c) => {
      const { body } = await c.app.call('GET', c.chat.path(`/conversations/${result.body.conversation_id}`))
      expect(body.contact.details).toEqual({ first_name: 'Ada', plan: 'team', seats: 3, trial: false })
    }),

    { name: 'another workspace\'s chatbot answers 404', method: 'POST', path: messagesPath, key: (c) => c.otherKey, body: { user_id: 'u', text: 'hi' }, status: 404, code: 'not_found' },
    { name: 'an unknown chatbot answers 404', method: 'POST', path: `/api/dev/v1/chatbots/${MISSING_ID}/integrations/rest-api/messages`, body: { user_id: 'u', text: 'hi' }, status: 404, code: 'not_found' },
    {
      name: 'a chatbot without a rest-api integration answers 404, saying so',
      method: 'POST',
      path: (c) => `/api/dev/v1/chatbots/${c.bare}/integrations/rest-api/messages`,
      body: { user_id: 'u', text: 'hi' },
      status: 404,
      code: 'not_found',
      check: ({ body }) => expect(body.detail).toBe('rest-api integration not found'),
    },
    {
      name: 'a switched-off integration answers 409 integration_inactive',
      method: 'POST',
      path: (c) => c.inactive.path('/integrations/rest-api/messages'),
      body: { user_id: 'u', text: 'hi' },
      status: 409,
      code: 'integration_inactive',
      check: async ({ body }, c) => {
        expect(body.detail).toContain('is_active')
        const { body: list } = await c.app.call('GET', c.inactive.path('/conversations'))
        expect(list.total).toBe(0)
      },
    },
    { name: 'without an API key: 401', method: 'POST', path: messagesPath, key: null, body: { user_id: 'u', text: 'hi' }, status: 401 },
    { name: 'malformed JSON: 400', method: 'POST', path: messagesPath, rawBody: '{"user_id":', headers: { 'content-type': 'application/json' }, status: 400 },

    refused('user_id is required', { text: 'hi' }, ['/user_id']),
    refused('user_id must be a string', { user_id: 42, text: 'hi' }, ['/user_id']),
    refused('user_id may not have spaces around it', { user_id: ' u1', text: 'hi' }, ['/user_id']),
    refused('user_id may not carry control characters', { user_id: 'u\n1', text: 'hi' }, ['/user_id']),
    refused('user_id is at most 256 characters', { user_id: 'u'.repeat(257), text: 'hi' }, ['/user_id']),
    refused('text or reply is required', { user_id: 'u' }, ['/text']),
    refused('text and reply together are refused', { user_id: 'u', text: 'hi', reply: { reply_to: 'button', id: 'sales', title: 'Sales' } }, ['/text', '/reply']),
    refused('an empty text is refused', { user_id: 'u', text: '' }, ['/text']),
    refused('a text over 4096 characters is refused', { user_id: 'u', text: 'x'.repeat(4097) }, ['/text']),
    refused('a reply needs reply_to', { user_id: 'u', reply: { id: 'sales', title: 'Sales' } }, ['/reply/reply_to']),
    refused('reply_to is button or row', { user_id: 'u', reply: { reply_to: 'link', id: 'sales', title: 'Sales' } }, ['/reply/reply_to']),
    refused('a reply takes no other fields', { user_id: 'u', reply: { reply_to: 'row', id: 'a', title: 'A', extra: 1 } }, ['/reply/extra']),
    refused('client_id is 1 to 64 characters of A-Z a-z 0-9 _ -', { user_id: 'u', text: 'hi', client_id: 'm 1' }, ['/client_id']),
    refused('contact detail values are scalars', { user_id: 'u', text: 'hi', contact_details: { address: { city: 'Berlin' } } }, ['/contact_details/address']),
    refused('contact detail values are at most 300 characters', { user_id: 'u', text: 'hi', contact_details: { note: 'x'.repeat(301) } }, ['/contact_details/note']),
    refused('at most 13 contact details', { user_id: 'u', text: 'hi', contact_details: Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`k${i}`, i])) }, ['/contact_details']),
    refused('unknown fields are refused', { user_id: 'u', text: 'hi', channel: 'sms' }, ['/channel']),
  ],
  { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' },
)
