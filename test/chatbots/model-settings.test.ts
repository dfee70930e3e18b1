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

const patch = (name: string, llm: unknown, status: number, check?: Scenario<Ctx>['check'], errorPaths?: string[]): Scenario<Ctx> => ({
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
      expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', temperature: 0.3, api_key: `••••${API_KEY.slice(-4)}` })
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
      expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: null, api_key: `••••${API_KEY.slice(-4)}` }),
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
