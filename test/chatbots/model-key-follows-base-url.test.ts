import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'

interface Ctx {
  app: TestApp
  botId: string
}

const base = '/api/dev/v1/chatbots'
const API_KEY = 'sk-proj-0123456789abcdefXYZW'
const MASKED = `••••${API_KEY.slice(-4)}`

const patch = (name: string, llm: unknown, status: number, check?: Scenario<Ctx>['check'], errorPaths?: string[]): Scenario<Ctx> => ({
  name,
  method: 'PATCH',
  path: (c) => `${base}/${c.botId}`,
  body: { llm },
  status,
  ...(errorPaths ? { code: 'validation_failed', errorPaths } : {}),
  check,
})

/**
 * The model's api_key is write-only, so whoever may PATCH a chatbot must not be able to read
 * it back by pointing base_url at a server of their own and letting the next agent call send
 * it there (`Authorization: Bearer <key>`): a key is kept only while base_url stays the one it
 * was given with.
 */
scenarios<Ctx>(
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
      expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: null, api_key: MASKED }),
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
      check: ({ body }) => expect(body.llm).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: null, api_key: MASKED }),
    },
    patch('another base_url with api_key null moves without the key', { base_url: 'https://llm.acme.io/v1', model: 'llama3.1', api_key: null }, 200, ({ body }) =>
      expect(body.llm).toEqual({ base_url: 'https://llm.acme.io/v1', model: 'llama3.1', temperature: null, api_key: null }),
    ),
    patch('another base_url with no key stored needs none', { base_url: 'https://other.acme.io/v1', model: 'llama3.1' }, 200, ({ body }) =>
      expect(body.llm.api_key).toBeNull(),
    ),
    patch('another base_url with a new key takes the new key', { base_url: 'https://openrouter.ai/api/v1', model: 'm', api_key: 'sk-or-v1-abcdefghijklmnop' }, 200, ({ body }) =>
      expect(body.llm.api_key).toBe('••••mnop'),
    ),
  ],
)
