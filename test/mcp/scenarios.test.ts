import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { streamableServer } from './support/mcp-servers.ts'
import { oauthServer } from './support/oauth-server.ts'

interface Ctx {
  app: TestApp
  bot: string
  id: string
  inactive: string
  oauth: string
}
const base = (c: Ctx, id = c.id) => `/api/dev/v1/chatbots/${c.bot}/integrations/mcp/${id}`

/** One server for both tables (in-process and compiled binary); it lives as long as the test process. */
const server = await streamableServer()
const authorization = oauthServer()
const guarded = await streamableServer({ oauth: { authorizationServer: authorization.origin, acceptsToken: (token) => authorization.acceptsToken(token) } })

/**
 * The server routes as rows, so that they also run against the compiled binary: the SDK,
 * its schema validator and RE2 must work inside `bun build --compile`.
 */
scenarios<Ctx>(
  'mcp server routes',
  async (app) => {
    const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Tools' } })).body.id
    const create = async (body: Record<string, unknown>) =>
      (await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { body: { url: server.url, ...body } })).body.id as string
    const oauth = await create({ name: 'guarded', url: guarded.url, auth: { type: 'oauth' } })
    return {
      app,
      bot,
      id: await create({ name: 'tools', tools: { deny: ['delete_everything'] } }),
      inactive: await create({ name: 'off', is_active: false }),
      oauth,
    }
  },
  ([
    {
      name: 'the connection test answers ok with the tools',
      method: 'POST',
      path: (c) => `${base(c)}/test`,
      status: 200,
      check: ({ body }) => {
        expect(body).toMatchObject({ ok: true, transport_used: 'streamable-http', server: { name: 'parley-test-tools' } })
        expect(body.tools.find((tool: { name: string }) => tool.name === 'delete_everything').allowed).toBe(false)
      },
    },
    { name: 'the tool list answers the listing', method: 'GET', path: (c) => `${base(c)}/tools`, status: 200, check: ({ body }) => expect(body.tools).toHaveLength(7) },
    {
      name: 'a call answers the content',
      method: 'POST',
      path: (c) => `${base(c)}/tools/echo/call`,
      body: { arguments: { text: 'from the binary too' } },
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ content: [{ type: 'text', text: 'from the binary too' }], is_error: false }),
    },
    { name: 'bad arguments answer 422 naming the path', method: 'POST', path: (c) => `${base(c)}/tools/echo/call`, body: { arguments: {} }, status: 422, code: 'validation_failed', errorPaths: ['/arguments/text'] },
    { name: 'a pattern check runs (RE2)', method: 'POST', path: (c) => `${base(c)}/tools/add/call`, body: { arguments: { a: 1, b: 2, tags: ['b'] } }, status: 422, errorPaths: ['/arguments/tags/0'] },
    { name: 'a denied tool answers 403', method: 'POST', path: (c) => `${base(c)}/tools/delete_everything/call`, body: {}, status: 403, code: 'tool_not_allowed' },
    { name: 'an unknown tool answers 404', method: 'POST', path: (c) => `${base(c)}/tools/nope/call`, body: {}, status: 404, code: 'tool_not_found' },
    { name: 'a switched-off integration refuses calls with 409', method: 'POST', path: (c) => `${base(c, c.inactive)}/tools/echo/call`, body: {}, status: 409, code: 'integration_inactive' },
    { name: 'a switched-off integration can still be tested', method: 'POST', path: (c) => `${base(c, c.inactive)}/test`, status: 200, check: ({ body }) => expect(body.ok).toBe(true) },
    {
      name: 'OAuth: a person authorizes (oauth/start, the authorization page, the public callback) and the server then answers',
      method: 'POST',
      path: (c) => `${base(c, c.oauth)}/oauth/start`,
      status: 200,
      check: async ({ body }, c) => {
        const atServer = await fetch(body.authorization_url, { redirect: 'manual' })
        const back = new URL(atServer.headers.get('location') as string)
        expect((await c.app.call('GET', back.pathname + back.search, { key: null })).status).toBe(200)
        expect((await c.app.call('POST', `${base(c, c.oauth)}/test`)).body).toMatchObject({ ok: true })
        expect((await c.app.call('GET', base(c, c.oauth))).body.config.auth.status).toBe('authorized')
      },
    },
    { name: 'an unknown integration answers 404', method: 'POST', path: (c) => `${base(c, '01ARZ3NDEKTSV4RRFFQ69G5FAV')}/test`, status: 404 },
    { name: 'a body that is not JSON answers 415', method: 'POST', path: (c) => `${base(c)}/tools/echo/call`, rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
  ] satisfies Scenario<Ctx>[]),
  { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' },
)
