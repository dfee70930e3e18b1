import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { type RestApiChat, setUpRestApiChat } from '../channels/rest-api/support/rest-api-chat.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

// Nothing listens there; deliveries are not what this test looks at.
const WEBHOOK = 'http://127.0.0.1:9/parley'

/** Patterns reported to block the server (issue 17): each published, each on visitor text. */
const FLOW: ConversationFlow = {
  version: 1,
  start: 'ask',
  states: {
    ask: {
      say: [{ text: 'Say something' }],
      on: [
        { match: '(a|aa)*b', to: 'ended_in_b' },
        { match: '^(\\w|\\d)+$', to: 'one_word' },
        { match: '^(a?){30}a{30}$', to: 'many_a' },
        { to: 'other' },
      ],
    },
    ended_in_b: { say: [{ text: 'b at last' }], next: 'ask' },
    one_word: { say: [{ text: 'one word' }], next: 'ask' },
    many_a: { say: [{ text: 'many a' }], next: 'ask' },
    other: { say: [{ text: 'something else' }], next: 'ask' },
  },
}

/** The same flow as an earlier version might hold it: a lookahead RE2 cannot run. */
const WITH_LOOKAHEAD: ConversationFlow = {
  ...FLOW,
  states: { ...FLOW.states, ask: { say: [{ text: 'Say something' }], on: [{ match: 'price(?= list)', to: 'ended_in_b' }, { to: 'other' }] } },
}

describe('match patterns in the compiled binary', () => {
  let app: TestApp
  let chat: RestApiChat
  let lookaheadChat: RestApiChat

  beforeAll(async () => {
    app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
    chat = await setUpRestApiChat(app, WEBHOOK, { flow: FLOW })
    // A version published before lookaheads were refused: written as the store keeps versions.
    lookaheadChat = await setUpRestApiChat(app, WEBHOOK, { flow: FLOW })
    app.db.run("INSERT INTO flow_versions (flow_id, version, published_at, definition) VALUES (?, 2, '2026-01-01T00:00:00.000Z', ?)", [lookaheadChat.flowId, JSON.stringify(WITH_LOOKAHEAD)])
    app.db.run('UPDATE flows SET published_version = 2 WHERE id = ?', [lookaheadChat.flowId])
    await app.serveFromBinary()
  }, 60_000)
  afterAll(() => app.close())

  const opened = new Set<string>()

  /** Sends a visitor message and answers the bot's reply and how long the request took. */
  async function say(to: RestApiChat, user: string, text: string): Promise<{ reply: string; ms: number }> {
    // A user's first message opens the conversation and answers only a matching transition; open it first.
    if (!opened.has(user)) {
      opened.add(user)
      expect((await app.call('POST', to.path('/integrations/rest-api/messages'), { body: { user_id: user, text: 'hi' } })).status).toBe(202)
    }
    const start = performance.now()
    const sent = await app.call('POST', to.path('/integrations/rest-api/messages'), { body: { user_id: user, text } })
    const ms = performance.now() - start
    expect(sent.status).toBe(202)
    const { body } = await app.call('GET', to.path(`/conversations/${sent.body.conversation_id}/messages?limit=200`))
    const bot = body.items.filter((m: { role: string }) => m.role === 'bot')
    // The reply to this message comes just before the flow asks again.
    return { reply: bot.at(-2).content.text, ms }
  }

  test('the reported patterns match as written', async () => {
    expect(app.target()).toBe('binary')
    expect((await say(chat, 'meaning', 'aaab')).reply).toBe('b at last')
    expect((await say(chat, 'meaning', 'xyz123')).reply).toBe('one word')
    expect((await say(chat, 'meaning', 'a a')).reply).toBe('something else')
  })

  test('messages of up to 4096 of their own characters take about as long as a plain message', async () => {
    const fastest = async (text: string) => {
      let best = Number.POSITIVE_INFINITY
      for (let i = 0; i < 3; i++) best = Math.min(best, (await say(chat, 'timing', text)).ms)
      return best
    }
    const baseline = await fastest('hello there')
    for (const text of [`${'a'.repeat(999)}!`, `${'1'.repeat(999)}!`, `${'a'.repeat(4095)}!`, 'a'.repeat(4096)]) {
      const ratio = (await fastest(text)) / baseline
      expect({ text: `${text.length} characters`, slow: ratio >= 20 }).toEqual({ text: `${text.length} characters`, slow: false })
    }
  }, 60_000)

  test('a published version holding a lookahead keeps answering: that transition never matches', async () => {
    expect((await say(lookaheadChat, 'old', 'price list')).reply).toBe('something else')
    expect((await say(lookaheadChat, 'old', 'price')).reply).toBe('something else')
  })
})
