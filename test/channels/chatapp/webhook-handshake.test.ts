import { expect } from 'bun:test'
import { scenarios } from '../../support/scenarios.ts'
import { type IntegrationContext, integrationContext, integrationsOf, loggedText, MISSING_ID } from '../../integrations/support/integration-context.ts'

const VERIFY_TOKEN = 'meta-verify-token-31415'

interface Ctx extends IntegrationContext {
  active: string
  inactive: string
  webId: string
}

// The scenario runner's toMatchObject leaves asymmetric matchers in body.title and body.detail
// of error answers, so the detail is read from the raw text.
const detailOf = (text: string): string => JSON.parse(text).detail
const hook = (id: string, query: Record<string, string>) => `/hooks/chatapp/${id}?${new URLSearchParams(query)}`
const handshake = (token = VERIFY_TOKEN, extra: Record<string, string> = {}) => ({
  'hub.mode': 'subscribe',
  'hub.verify_token': token,
  'hub.challenge': '1158201444',
  ...extra,
})

scenarios<Ctx>(
  "the chatapp provider's verify handshake on callback_url",
  async (app) => {
    const c = await integrationContext(app, 2)
    const create = async (botId: string) =>
      (
        await app.call('POST', integrationsOf(botId, '/chatapp'), {
          body: { phone_number_id: '1065', access_token: 'EAAG-access-0123456789', verify_token: VERIFY_TOKEN },
        })
      ).body
    const active = await create(c.botId)
    const inactiveBot = c.fresh()
    const inactive = await create(inactiveBot)
    await app.call('PATCH', integrationsOf(inactiveBot, '/chatapp'), { body: { is_active: false } })
    const web = await app.call('POST', integrationsOf(c.botId, '/web'), { body: { name: 'Site' } })
    c.saved.callbackUrl = active.config.callback_url
    return { ...c, active: active.id, inactive: inactive.id, webId: web.body.id }
  },
  [
    {
      name: 'the right token echoes the challenge as text/plain, without an API key',
      method: 'GET',
      path: (c) => hook(c.active, handshake()),
      key: null,
      status: 200,
      check: ({ text, headers }, c) => {
        expect(text).toBe('1158201444')
        expect(headers.get('content-type')).toBe('text/plain; charset=utf-8')
        expect(headers.get('x-content-type-options')).toBe('nosniff')
        expect(c.saved.callbackUrl).toBe(`http://parley.test/hooks/chatapp/${c.active}`)
      },
    },
    {
      name: 'the path of callback_url is the one that answers',
      method: 'GET',
      path: (c) => `${new URL(c.saved.callbackUrl).pathname}?${new URLSearchParams(handshake())}`,
      key: null,
      status: 200,
    },
    { name: 'a wrong token answers 403', method: 'GET', path: (c) => hook(c.active, handshake('wrong-token')), key: null, status: 403, code: 'verification_failed' },
    { name: 'a token that only starts right answers 403', method: 'GET', path: (c) => hook(c.active, handshake(VERIFY_TOKEN.slice(0, -1))), key: null, status: 403 },
    { name: 'a longer token answers 403', method: 'GET', path: (c) => hook(c.active, handshake(`${VERIFY_TOKEN}x`)), key: null, status: 403 },
    {
      name: 'a missing token answers 403',
      method: 'GET',
      path: (c) => hook(c.active, { 'hub.mode': 'subscribe', 'hub.challenge': '1' }),
      key: null,
      status: 403,
    },
    {
      name: 'a mode other than subscribe answers 403',
      method: 'GET',
      path: (c) => hook(c.active, handshake(VERIFY_TOKEN, { 'hub.mode': 'unsubscribe' })),
      key: null,
      status: 403,
      code: 'verification_failed',
      check: ({ text }) => expect(detailOf(text)).toBe('hub.mode must be "subscribe"'),
    },
    { name: 'a missing mode answers 403', method: 'GET', path: (c) => hook(c.active, { 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' }), key: null, status: 403 },
    {
      name: 'an inactive integration answers 403, even with the right token',
      method: 'GET',
      path: (c) => hook(c.inactive, handshake()),
      key: null,
      status: 403,
      check: ({ text }) => expect(detailOf(text)).toContain('inactive'),
    },
    {
      name: 'an inactive integration does not reveal that it is inactive to a wrong token',
      method: 'GET',
      path: (c) => hook(c.inactive, handshake('wrong')),
      key: null,
      status: 403,
      check: ({ text }) => expect(detailOf(text)).not.toContain('inactive'),
    },
    { name: 'a missing challenge answers 403', method: 'GET', path: (c) => hook(c.active, { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN }), key: null, status: 403 },
    {
      name: 'a challenge with markup is not echoed',
      method: 'GET',
      path: (c) => hook(c.active, handshake(VERIFY_TOKEN, { 'hub.challenge': '<script>alert(1)</script> x' })),
      key: null,
      status: 403,
    },
    { name: 'an unknown integration answers 404', method: 'GET', path: () => hook(MISSING_ID, handshake()), key: null, status: 404, code: 'not_found' },
    { name: 'a web integration id answers 404', method: 'GET', path: (c) => hook(c.webId, handshake()), key: null, status: 404 },
    {
      name: 'after a delete the handshake answers 404',
      method: 'DELETE',
      path: (c) => integrationsOf(c.botId, `/${c.active}`),
      status: 204,
      check: async (_, c) => {
        expect((await c.app.call('GET', hook(c.active, handshake()), { key: null })).status).toBe(404)
      },
    },
    {
      name: 'the verify token never reaches a log line',
      method: 'GET',
      path: (c) => hook(c.inactive, handshake()),
      key: null,
      status: 403,
      check: async (_, c) => {
        const logged = await loggedText(c.app)
        expect(logged).toContain('/hooks/chatapp/')
        expect(logged).not.toContain(VERIFY_TOKEN)
      },
    },
  ],
)
