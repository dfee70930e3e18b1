import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { loggedText } from '../integrations/support/integration-context.ts'

interface Ctx {
  app: TestApp
  botId: string
  otherKey: string
  otherBotId: string
}

const base = '/api/dev/v1/chatbots'
const API_KEY = 'sk-proj-0123456789abcdefXYZW'
const OPENAI = { base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', api_key: API_KEY, temperature: 0.3 }

const MASKED = `••••${API_KEY.slice(-4)}`
/** The limits a chatbot's model settings take when none is given (docs/agents.md). */
const DEFAULT_LIMITS = { max_tokens: 1024, call_deadline_ms: 120_000, run_deadline_ms: 300_000 }

const patch = <C extends { botId: string }>(name: string, llm: unknown, status: number, check?: Scenario<C>['check'], errorPaths?: string[]): Scenario<C> => ({
  name,
  method: 'PATCH',
  path: (c) => `${base}/${c.botId}`,
  body: { llm },
  status,
  ...(errorPaths ? { code: 'validation_failed', errorPaths } : {}),
  check,
})

scenarios<Ctx>(
  "a chatbot's model settings (llm)",
  async (app) => {
    const otherKey = app.otherWorkspaceKey()
    const bot = await app.call('POST', base, { body: { name: 'Support' } })
    const other = await app.call('POST', base, { body: { name: 'Theirs' }, key: otherKey })
    return { app, botId: bot.body.id, otherKey, otherBotId: other.body.id }
  },
  [
    { name: 'a new chatbot has none', method: 'GET', path: (c) => `${base}/${c.botId}`, status: 200, check: ({ body }) => expect(body.llm).toBeNull() },
    patch('any OpenAI-compatible endpoint is set with PATCH; the key is masked', OPENAI, 200, ({ body, text }) => {
      expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', temperature: 0.3, api_key: `••••${API_KEY.slice(-4)}`, ...DEFAULT_LIMITS })
      expect(text).not.toContain(API_KEY)
    }),
    {
      name: 'a GET shows the settings masked, and the list too',
      method: 'GET',
      path: base,
      status: 200,
      check: ({ body, text }) => {
        expect(body.items[0].llm.api_key).toBe(`••••${API_KEY.slice(-4)}`)
        expect(text).not.toContain(API_KEY)
      },
    },
    patch('a PATCH without api_key keeps the stored key; a trailing slash is dropped', { base_url: 'https://api.openai.com/v1/', model: 'gpt-4o' }, 200, ({ body }) =>
      expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: null, api_key: `••••${API_KEY.slice(-4)}`, ...DEFAULT_LIMITS }),
    ),
    patch('api_key null removes the key (a local server needs none)', { base_url: 'https://llm.acme.io/v1', model: 'llama3.1', api_key: null }, 200, ({ body }) =>
      expect(body.llm.api_key).toBeNull(),
    ),
    patch('a private address is refused, naming PARLEY_OUTBOUND_ALLOW', { base_url: 'http://10.0.0.5:11434/v1', model: 'llama3.1' }, 422, ({ body }) =>
      expect(body.errors[0].message).toContain('PARLEY_OUTBOUND_ALLOW'), ['/llm/base_url']),
    patch("a team's own Ollama on an allowed address is fine", { base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1' }, 200, ({ body }) =>
      expect(body.llm.base_url).toBe('http://127.0.0.1:11434/v1'),
    ),
    patch('base_url must be http(s)', { base_url: 'ftp://llm.acme.io/v1', model: 'm' }, 422, undefined, ['/llm/base_url']),
    patch('a model is required', { base_url: 'https://llm.acme.io/v1' }, 422, undefined, ['/llm/model']),
    patch('temperature is 0 to 2', { ...OPENAI, temperature: 2.5 }, 422, undefined, ['/llm/temperature']),
    patch('max_tokens and the deadlines are set with the rest', { ...OPENAI, max_tokens: 300, call_deadline_ms: 30_000, run_deadline_ms: 90_000 }, 200, ({ body }) =>
      expect(body.llm).toMatchObject({ max_tokens: 300, call_deadline_ms: 30_000, run_deadline_ms: 90_000 }),
    ),
    patch('a PATCH that does not name them keeps them; null restores a default', { base_url: OPENAI.base_url, model: 'gpt-4o', max_tokens: null }, 200, ({ body }) =>
      expect(body.llm).toMatchObject({ max_tokens: 1024, call_deadline_ms: 30_000, run_deadline_ms: 90_000 }),
    ),
    patch('max_tokens is 1 to 8192', { ...OPENAI, max_tokens: 8193 }, 422, undefined, ['/llm/max_tokens']),
    patch('deadlines are at least a second, at most 10 and 30 minutes', { ...OPENAI, call_deadline_ms: 999, run_deadline_ms: 1_800_001 }, 422, undefined, [
      '/llm/call_deadline_ms',
      '/llm/run_deadline_ms',
    ]),
    patch('unknown fields are refused', { ...OPENAI, top_p: 1 }, 422, undefined, ['/llm/top_p']),
    patch('null removes the settings', null, 200, ({ body }) => expect(body.llm).toBeNull()),
    {
      name: "another workspace's chatbot cannot be given settings",
      method: 'PATCH',
      path: (c) => `${base}/${c.otherBotId}`,
      body: { llm: OPENAI },
      status: 404,
    },
    {
      name: 'the key never appears in a log line',
      method: 'GET',
      path: (c) => `${base}/${c.botId}`,
      status: 200,
      check: async (_, c) => expect(await loggedText(c.app)).not.toContain(API_KEY),
    },
  ],
  { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' },
)

/**
 * The model's api_key is write-only, so whoever may PATCH a chatbot must not be able to read
 * it back by pointing base_url at a server of their own and letting the next agent call send
 * it there (`Authorization: Bearer <key>`): a key is kept only while base_url stays the one it
 * was given with.
 */
scenarios<{ app: TestApp; botId: string }>(
  "a chatbot's model key stays with the base_url it was given with",
  async (app) => {
    const bot = await app.call('POST', base, { body: { name: 'Support' } })
    return { app, botId: bot.body.id }
  },
  [
    patch('a key is given with its endpoint', { base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', api_key: API_KEY }, 200, ({ body }) =>
      expect(body.llm.api_key).toBe(MASKED),
    ),
    patch('the same base_url (a trailing slash aside) keeps the stored key', { base_url: 'https://api.openai.com/v1/', model: 'gpt-4o' }, 200, ({ body }) =>
      expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: null, api_key: MASKED, ...DEFAULT_LIMITS }),
    ),
    patch(
      'another host without api_key is refused, naming api_key',
      { base_url: 'https://collector.example.net/v1', model: 'gpt-4o' },
      422,
      ({ body }) => expect(body.errors[0].message).toContain('api_key'),
      ['/llm/api_key'],
    ),
    patch('plain http on the same host is refused too', { base_url: 'http://api.openai.com/v1', model: 'gpt-4o' }, 422, undefined, ['/llm/api_key']),
    patch('another port is refused too', { base_url: 'https://api.openai.com:8443/v1', model: 'gpt-4o' }, 422, undefined, ['/llm/api_key']),
    // A gateway's path names an account (gateway.example/v1/{account}/openai): another path may be another tenant's.
    patch('another path on the same host is refused too', { base_url: 'https://api.openai.com/v1/their-account', model: 'gpt-4o' }, 422, undefined, ['/llm/api_key']),
    {
      name: 'a refused change changes nothing',
      method: 'GET',
      path: (c) => `${base}/${c.botId}`,
      status: 200,
      check: ({ body }) => expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: null, api_key: MASKED, ...DEFAULT_LIMITS }),
    },
    patch('another base_url with api_key null moves without the key', { base_url: 'https://llm.acme.io/v1', model: 'llama3.1', api_key: null }, 200, ({ body }) =>
      expect(body.llm).toEqual({ base_url: 'https://llm.acme.io/v1', model: 'llama3.1', temperature: null, api_key: null, ...DEFAULT_LIMITS }),
    ),
    patch('another base_url with no key stored needs none', { base_url: 'https://other.acme.io/v1', model: 'llama3.1' }, 200, ({ body }) =>
      expect(body.llm.api_key).toBeNull(),
    ),
    patch('another base_url with a new key takes the new key', { base_url: 'https://openrouter.ai/api/v1', model: 'm', api_key: 'sk-or-v1-abcdefghijklmnop' }, 200, ({ body }) =>
      expect(body.llm.api_key).toBe('••••mnop'),
    ),
  ],
)
