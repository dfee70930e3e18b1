import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { fakeGraphApi, type FakeGraphApi } from './support/fake-graph-api.ts'
import { type ChatappChat, postWebhook, setUpChatappChat } from './support/chatapp-chat.ts'

/** Real webhook bodies of the provider (see test/fixtures/chatapp-webhooks/README.md), by file and case. */
const fixture = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/chatapp-webhooks/${file}`, import.meta.url), 'utf8'))
const FILES = ['message.json', 'callback_button.json', 'callback_selection.json', 'flow_completion.json', 'message_status.json']
const BUSINESS_NUMBER = '1122334455667'

const txt = (text: string) => ({ kind: 'text', text })
const reply = (reply_to: 'button' | 'row', id: string, title: string) => ({ kind: 'reply', reply_to, id, title })
const FORM = '[form] comment_text: Comment Text, delivery_rating: 4, purchase_rating: 2, recommend_radio: 0, cs_rating: 0'
const FORM_FIELDS = { comment_text: 'Comment Text', delivery_rating: '4', purchase_rating: '2', recommend_radio: '0', cs_rating: '0' }

type Expected =
  | { message: object; answered?: boolean; form?: object; reported?: string }
  | { status: string; errors?: object[] }
  | { ignored: string }

/** What every case must become. A case missing here fails the test below, so a new fixture cannot go unchecked. */
const EXPECTED: Record<string, Record<string, Expected>> = {
  'message.json': {
    text: { message: txt('Body Text') },
    image: { message: txt('[image]') },
    media_with_url: { message: txt('[image]') },
    video: { message: txt('[video] caption') },
    document: { message: txt('[document: filename.pdf] caption') },
    audio: { message: txt('[audio]') },
    voice: { message: txt('[voice message]') },
    static_sticker: { message: txt('[sticker]') },
    animated_sticker: { message: txt('[animated sticker]') },
    reaction: { message: txt('[reaction 😮]'), answered: false },
    unreaction_empty: { message: txt('[reaction removed]'), answered: false },
    unreaction_no_emoji: { message: txt('[reaction removed]'), answered: false },
    current_location: { message: txt('[location] (12.25089, 43.90539)') },
    chosen_location: { message: txt('[location] Facebook HQ, 1 Hacker Way, Menlo Park, CA 94025 (37.4611978, -122.2164385)') },
    contacts: { message: txt('[contacts] Chandler Bing +1 555-555-5555; Monica +1 666-666-6666; Rachel Green +1 777-777-7777') },
    order: { message: txt('[order] 3 × HAMBURGER (30 ILS), 2 × FRENCH_FRIES (35 ILS), 2 × SODA (10 ILS)') },
    unsupported: { message: txt('[unsupported message]') },
    unsupported_with_type: { message: txt('[unsupported message: pool]') },
    reply: { message: txt('replied text') },
    forwarded: { message: txt('forwarded text') },
    forwarded_many_times: { message: txt('text forwarded many times') },
    interactive_message_with_err: {
      message: txt('[interactive message]'),
      reported: 'the provider reported an error: 131000 Something went wrong (Unsupported webhook payload)',
    },
    referral: { message: txt('BODY') },
  },
  'callback_button.json': {
    button: { message: reply('button', 'callback_data', 'title') },
    quick_reply: { message: reply('button', 'callback_data', 'title') },
    quick_reply_without_context: { message: reply('button', 'callback_data', 'title') },
  },
  'callback_selection.json': {
    callback: { message: reply('row', 'callback_data', 'title') },
    description: { message: reply('row', 'callback_data', 'title') },
  },
  'flow_completion.json': {
    completion: { message: txt(FORM), form: { ...FORM_FIELDS, flow_token: 'AQAAAAACS5FpgQ_cAAAAAD0QI3s.' } },
    without_flow_token: { message: txt(FORM), form: FORM_FIELDS },
  },
  'message_status.json': {
    sent: { status: 'sent' },
    delivered: { status: 'delivered' },
    read: { status: 'read' },
    played: { status: 'played' },
    failed: {
      status: 'failed',
      errors: [{ code: 130472, title: "User's number is part of an experiment", message: "User's number is part of an experiment", details: "Failed to send message because this user's phone number is part of an experiment" }],
    },
    with_tracker: { status: 'sent' },
    group: { ignored: 'it is for the business number "<BUSINESS_PHONE_NUMBER_ID>", not this integration\'s phone_number_id' },
  },
}

let app: TestApp
let graph: FakeGraphApi
beforeAll(() => {
  graph = fakeGraphApi()
  app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })
})
afterAll(async () => {
  await app.close()
  graph.stop()
})

const messagesOf = async (chat: ChatappChat, conversationId: string) =>
  (await app.call('GET', chat.path(`/conversations/${conversationId}/messages?limit=200`))).body.items as any[]

describe("every recorded provider webhook is accepted (200) and mapped as documented", () => {
  test('the table covers every case of every fixture file', () => {
    for (const file of FILES) expect(Object.keys(EXPECTED[file] ?? {}).sort()).toEqual(Object.keys(fixture(file)).sort())
  })

  for (const file of FILES) {
    for (const [name, body] of Object.entries(fixture(file))) {
      const expected = EXPECTED[file]?.[name]
      test(`${file} ${name}`, async () => {
        // A chatbot each: the fixtures reuse provider message ids, which are idempotency keys per integration.
        const chat = await setUpChatappChat(app, graph, { phoneNumberId: BUSINESS_NUMBER })
        const posted = await postWebhook(app, chat, body)
        expect(posted.status).toBe(200)
        expect(expected).toBeDefined()

        if (expected && 'message' in expected) {
          const ignored = expected.reported ? [{ path: '/entry/0/changes/0/value/errors/0', reason: expected.reported }] : []
          expect(posted.body).toEqual({ messages: { stored: 1, duplicates: 0 }, statuses: { recorded: 0, duplicates: 0, unmatched: 0 }, ignored })
          const inbound = (await app.call('GET', chat.path('/integrations/chatapp/inbound'))).body.items
          expect(inbound).toHaveLength(1)
          expect(inbound[0]).toMatchObject({ from: '+972987654321', profile_name: 'Test Name', form_response: expected.form ?? null })
          const messages = await messagesOf(chat, inbound[0].conversation_id)
          const stored = messages.find((message) => message.id === inbound[0].message_id)
          expect(stored).toMatchObject({ role: 'visitor', content: expected.message, client_id: inbound[0].provider_message_id })
          // The bot greets first (a new conversation), then answers the message, unless it is nothing to answer.
          const after = messages.slice(messages.indexOf(stored) + 1)
          if (expected.answered === false) expect(after).toEqual([])
          else expect(after.length).toBeGreaterThan(0)
          const conversation = (await app.call('GET', chat.path(`/conversations/${inbound[0].conversation_id}`))).body
          expect(conversation).toMatchObject({ channel: 'chatapp', integration_id: chat.integrationId, contact: { external_id: '+972987654321', details: { profile_name: 'Test Name' } } })
        } else if (expected && 'status' in expected) {
          expect(posted.body).toEqual({ messages: { stored: 0, duplicates: 0 }, statuses: { recorded: 1, duplicates: 0, unmatched: 1 }, ignored: [] })
          const rows = app.db.query<any, [string]>('SELECT wamid, status, errors FROM chatapp_statuses WHERE integration_id = ?').all(chat.integrationId)
          expect(rows).toEqual([{ wamid: 'wamid.xyzxyz', status: expected.status, errors: expected.errors ? JSON.stringify(expected.errors) : null }])
        } else if (expected) {
          expect(posted.body.ignored).toEqual([{ path: '/entry/0/changes/0/value/statuses/0', reason: expected.ignored }])
          expect(posted.body.statuses.recorded).toBe(0)
        }

        // The provider retries webhooks: the same body again stores nothing new.
        const again = await postWebhook(app, chat, body)
        expect(again.status).toBe(200)
        if (expected && 'message' in expected) expect(again.body.messages).toEqual({ stored: 0, duplicates: 1 })
        if (expected && 'status' in expected) expect(again.body.statuses).toEqual({ recorded: 0, duplicates: 1, unmatched: 0 })
        expect((await app.call('GET', chat.path('/integrations/chatapp/inbound'))).body.total).toBe(expected && 'message' in expected ? 1 : 0)
      })
    }
  }
})
