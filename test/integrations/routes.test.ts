import { expect } from 'bun:test'
import { sqliteIntegrationStore } from '../../server/integrations/sqlite-store.ts'
import { newId } from '../../server/support/new-id.ts'
import { announcedInProcess, type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { type IntegrationContext, integrationContext, integrationsOf, loggedText, MISSING_ID } from './support/integration-context.ts'

type Row = Scenario<IntegrationContext>

const MCP_TOKEN = 'mcp-bearer-token-0123456789-QwEr'
const MCP_HEADER = 'Basic dXNlcjpwYXNzd29yZA-9z8y'
const VERIFY_TOKEN = 'verify-token-for-routes'

/** An mcp row as its create endpoint stores it, with a chosen creation time to order the list. */
async function insertMcp(app: TestApp, chatbotId: string, workspaceId: string, name: string, createdAt: string) {
  const id = newId()
  const result = await sqliteIntegrationStore(app.db).insert({
    id,
    chatbot_id: chatbotId,
    workspace_id: workspaceId,
    type: 'mcp',
    name,
    is_active: true,
    config: { url: 'https://tools.example.com/mcp', transport: 'auto', auth: { type: 'headers' }, tools: { allow: ['orders.find'], deny: [] }, timeout_ms: 30_000 },
    secrets: { headers: { Authorization: MCP_HEADER, 'X-Token': MCP_TOKEN } },
    public_key: null,
    created_at: createdAt,
    updated_at: null,
  })
  if (result !== 'inserted') throw new Error(result)
  return id
}

interface Ctx extends IntegrationContext {
  web: string
  restApi: string
  chatapp: string
  mcp: string[]
  theirs: string
  removed: unknown[]
  changed: unknown[]
}

const typed = ['web', 'rest-api', 'chatapp'] as const
const bodies: Record<(typeof typed)[number], unknown> = {
  web: { name: 'Website' },
  'rest-api': { webhook_url: 'https://example.com/hook' },
  chatapp: { phone_number_id: '1065', access_token: 'EAAG-token-0123456789', verify_token: VERIFY_TOKEN },
}

/** Every route of the integrations API, for the rows that must answer the same on each. */
const everyRoute = (bot: (c: Ctx) => string, integration: (c: Ctx) => string): { label: string; method: string; path: (c: Ctx) => string; body?: unknown }[] => [
  { label: 'list', method: 'GET', path: (c: Ctx) => integrationsOf(bot(c)) },
  { label: 'get by id', method: 'GET', path: (c: Ctx) => integrationsOf(bot(c), `/${integration(c)}`) },
  { label: 'delete by id', method: 'DELETE', path: (c: Ctx) => integrationsOf(bot(c), `/${integration(c)}`) },
  ...typed.flatMap((type) => [
    { label: `create ${type}`, method: 'POST', path: (c: Ctx) => integrationsOf(bot(c), `/${type}`), body: bodies[type] },
    { label: `get ${type}`, method: 'GET', path: (c: Ctx) => integrationsOf(bot(c), `/${type}`) },
    { label: `patch ${type}`, method: 'PATCH', path: (c: Ctx) => integrationsOf(bot(c), `/${type}`), body: { name: 'x' } },
  ]),
]

const notFoundOnEveryRoute = (why: string, bot: (c: Ctx) => string, integration: (c: Ctx) => string): Scenario<Ctx>[] =>
  everyRoute(bot, integration).map((route) => ({
    name: `${why}: ${route.label} answers 404`,
    method: route.method,
    path: route.path,
    body: route.body,
    status: 404,
    code: 'not_found',
  }))

scenarios<Ctx>(
  'integrations of any type: list, get, delete, tenancy',
  async (app) => {
    const base = await integrationContext(app, 8)
    const workspaceId = app.db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?').get(base.botId)!.workspace_id
    const create = async (type: (typeof typed)[number]) =>
      (await app.call('POST', integrationsOf(base.botId, `/${type}`), { body: bodies[type] })).body.id as string
    const mcpOld = await insertMcp(app, base.botId, workspaceId, 'old-tools', '2020-01-01T00:00:00.000Z')
    const web = await create('web')
    const restApi = await create('rest-api')
    const chatapp = await create('chatapp')
    const mcpNew = await insertMcp(app, base.botId, workspaceId, 'new-tools', '2999-01-01T00:00:00.000Z')
    const theirs = (
      await app.call('POST', integrationsOf(base.otherBotId, '/web'), { body: { name: 'Their site' }, key: base.otherKey })
    ).body.id as string
    const removed: unknown[] = []
    const changed: unknown[] = []
    app.events.on('integration.removed', (event) => removed.push(event))
    app.events.on('integration.changed', (event) => changed.push(event))
    return { ...base, web, restApi, chatapp, mcp: [mcpNew, mcpOld], theirs, removed, changed, saved: { workspaceId } }
  },
  [
    {
      name: 'the list shows every type, newest first, with only id, chatbot_id, type, is_active and created_at',
      method: 'GET',
      path: (c) => integrationsOf(c.botId),
      status: 200,
      check: ({ body }, c) => {
        expect(body.total).toBe(5)
        expect(body.items.map((item: { id: string }) => item.id)).toEqual([c.mcp[0], c.chatapp, c.restApi, c.web, c.mcp[1]])
        expect(body.items.map((item: { type: string }) => item.type)).toEqual(['mcp', 'chatapp', 'rest-api', 'web', 'mcp'])
        for (const item of body.items) expect(Object.keys(item).sort()).toEqual(['chatbot_id', 'created_at', 'id', 'is_active', 'type'])
      },
    },
    {
      name: 'limit and offset page through the list; total counts them all',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, '?limit=2&offset=1'),
      status: 200,
      check: ({ body }, c) => expect(body).toEqual({ total: 5, items: [expect.objectContaining({ id: c.chatapp }), expect.objectContaining({ id: c.restApi })] }),
    },
    {
      name: 'an offset past the end gives an empty page with the total',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, '?offset=50'),
      status: 200,
      check: ({ body }) => expect(body).toEqual({ items: [], total: 5 }),
    },
    {
      name: 'type narrows the list to that type, and total counts only those',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, '?type=mcp'),
      status: 200,
      check: ({ body }, c) => expect(body).toEqual({ total: 2, items: [expect.objectContaining({ id: c.mcp[0] }), expect.objectContaining({ id: c.mcp[1] })] }),
    },
    {
      name: 'a one-per-chatbot type lists that one integration',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, '?type=rest-api'),
      status: 200,
      check: ({ body }, c) => expect(body).toEqual({ total: 1, items: [expect.objectContaining({ id: c.restApi, type: 'rest-api' })] }),
    },
    {
      name: 'a type the chatbot has none of lists none, not 404',
      method: 'GET',
      path: (c) => integrationsOf(c.fresh(), '?type=web'),
      status: 200,
      check: ({ body }) => expect(body).toEqual({ items: [], total: 0 }),
    },
    { name: 'an unknown type is refused at type', method: 'GET', path: (c) => integrationsOf(c.botId, '?type=email'), status: 422, code: 'validation_failed', errorPaths: ['/type'] },
    { name: 'limit above 200 is refused', method: 'GET', path: (c) => integrationsOf(c.botId, '?limit=201'), status: 422, code: 'validation_failed', errorPaths: ['/limit'] },
    { name: 'limit 0 is refused', method: 'GET', path: (c) => integrationsOf(c.botId, '?limit=0'), status: 422, errorPaths: ['/limit'] },
    { name: 'a negative offset is refused', method: 'GET', path: (c) => integrationsOf(c.botId, '?offset=-1'), status: 422, errorPaths: ['/offset'] },
    {
      name: 'a chatbot with no integrations lists none',
      method: 'GET',
      path: (c) => integrationsOf(c.fresh()),
      status: 200,
      check: ({ body }) => expect(body).toEqual({ items: [], total: 0 }),
    },
    {
      name: 'an mcp integration reads by id with its settings, every secret masked',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.mcp[0]}`),
      status: 200,
      check: ({ body, text }, c) => {
        expect(body).toEqual({
          id: c.mcp[0],
          chatbot_id: c.botId,
          type: 'mcp',
          name: 'new-tools',
          is_active: true,
          config: {
            url: 'https://tools.example.com/mcp',
            transport: 'auto',
            auth: { type: 'headers', headers: { Authorization: '••••9z8y', 'X-Token': '••••QwEr' } },
            tools: { allow: ['orders.find'], deny: [] },
            timeout_ms: 30_000,
          },
          created_at: '2999-01-01T00:00:00.000Z',
          updated_at: null,
        })
        expect(text).not.toContain(MCP_TOKEN)
        expect(text).not.toContain(MCP_HEADER)
      },
    },
    {
      name: 'each typed integration reads by id with its own type',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.chatapp}`),
      status: 200,
      check: ({ body, text }) => {
        expect(body.type).toBe('chatapp')
        expect(body.config.verify_token).toBe('••••utes')
        expect(text).not.toContain(VERIFY_TOKEN)
      },
    },
    { name: 'an unknown integration id answers 404', method: 'GET', path: (c) => integrationsOf(c.botId, `/${MISSING_ID}`), status: 404, code: 'not_found' },
    { name: 'a malformed integration id answers 404', method: 'GET', path: (c) => integrationsOf(c.botId, '/not-an-id'), status: 404, code: 'not_found' },
    {
      name: 'an integration of another chatbot of the same workspace is not found under this one',
      method: 'GET',
      path: (c) => integrationsOf(c.fresh(), `/${c.web}`),
      status: 404,
    },

    // malformed bodies
    ...typed.flatMap((type): Row[] => [
      { name: `malformed JSON on POST ${type} answers 400`, method: 'POST', path: (c) => integrationsOf(c.fresh(), `/${type}`), rawBody: '{"name": ', headers: { 'content-type': 'application/json' }, status: 400, code: 'malformed_json' },
      { name: `malformed JSON on PATCH ${type} answers 400`, method: 'PATCH', path: (c) => integrationsOf(c.botId, `/${type}`), rawBody: '{', headers: { 'content-type': 'application/json' }, status: 400, code: 'malformed_json' },
      { name: `a non-JSON body on POST ${type} answers 415`, method: 'POST', path: (c) => integrationsOf(c.botId, `/${type}`), rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
      { name: `an array body on PATCH ${type} answers 422 at the root`, method: 'PATCH', path: (c) => integrationsOf(c.botId, `/${type}`), body: [], status: 422, errorPaths: [''] },
    ]),
    { name: 'no API key answers 401', method: 'GET', path: (c) => integrationsOf(c.botId), key: null, status: 401, code: 'unauthorized' },
    { name: 'PUT on a typed path answers 405', method: 'PUT', path: (c) => integrationsOf(c.botId, '/web'), body: {}, status: 405, code: 'method_not_allowed' },

    // tenancy
    ...notFoundOnEveryRoute("another workspace's chatbot", (c) => c.otherBotId, (c) => c.theirs),
    ...notFoundOnEveryRoute('an unknown chatbot', () => MISSING_ID, (c) => c.web),
    {
      name: "another workspace's integration id under my chatbot answers 404",
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.theirs}`),
      status: 404,
    },
    {
      name: "another workspace's integration id cannot be deleted under my chatbot",
      method: 'DELETE',
      path: (c) => integrationsOf(c.botId, `/${c.theirs}`),
      status: 404,
    },
    {
      name: 'the other workspace cannot see mine with its own key either',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.web}`),
      key: (c) => c.otherKey,
      status: 404,
    },
    {
      name: "the other workspace's integration is untouched by all of that",
      method: 'GET',
      path: (c) => integrationsOf(c.otherBotId, '/web'),
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }, c) => {
        expect(body).toMatchObject({ id: c.theirs, name: 'Their site', updated_at: null })
        announcedInProcess(c.app, () => {
          expect(c.removed).toEqual([])
          expect(c.changed).toEqual([])
        })
      },
    },

    // delete
    {
      name: 'deleting answers 204 with no body and announces the removal',
      method: 'DELETE',
      path: (c) => integrationsOf(c.botId, `/${c.web}`),
      status: 204,
      check: ({ text }, c) => {
        expect(text).toBe('')
        announcedInProcess(c.app, () =>
          expect(c.removed).toEqual([{ workspaceId: c.saved.workspaceId, chatbotId: c.botId, integrationId: c.web, type: 'web' }]),
        )
      },
    },
    { name: 'after a delete the typed GET answers 404', method: 'GET', path: (c) => integrationsOf(c.botId, '/web'), status: 404, code: 'not_found' },
    { name: 'after a delete GET by id answers 404', method: 'GET', path: (c) => integrationsOf(c.botId, `/${c.web}`), status: 404 },
    { name: 'after a delete the typed PATCH answers 404', method: 'PATCH', path: (c) => integrationsOf(c.botId, '/web'), body: { name: 'x' }, status: 404 },
    { name: 'deleting twice answers 404', method: 'DELETE', path: (c) => integrationsOf(c.botId, `/${c.web}`), status: 404, check: (_, c) => announcedInProcess(c.app, () => expect(c.removed).toHaveLength(1)) },
    {
      name: 'after a delete a new integration of that type can be created',
      method: 'POST',
      path: (c) => integrationsOf(c.botId, '/web'),
      body: { name: 'Website again' },
      status: 201,
    },
    {
      name: 'an mcp integration is deleted like any other',
      method: 'DELETE',
      path: (c) => integrationsOf(c.botId, `/${c.mcp[1]}`),
      status: 204,
      check: (_, c) =>
        announcedInProcess(c.app, () =>
          expect(c.removed.at(-1)).toEqual({ workspaceId: c.saved.workspaceId, chatbotId: c.botId, integrationId: c.mcp[1], type: 'mcp' }),
        ),
    },
    {
      name: 'the list no longer shows deleted integrations',
      method: 'GET',
      path: (c) => integrationsOf(c.botId),
      status: 200,
      check: ({ body }, c) => {
        expect(body.total).toBe(4)
        const ids = body.items.map((item: { id: string }) => item.id)
        expect(ids).not.toContain(c.web)
        expect(ids).not.toContain(c.mcp[1])
      },
    },
    {
      name: 'a PATCH announces the change with the state of the channel',
      method: 'PATCH',
      path: (c) => integrationsOf(c.botId, '/chatapp'),
      body: { is_active: false },
      status: 200,
      check: (_, c) =>
        announcedInProcess(c.app, () =>
          expect(c.changed).toEqual([{ workspaceId: c.saved.workspaceId, chatbotId: c.botId, integrationId: c.chatapp, type: 'chatapp', isActive: false }]),
        ),
    },
    {
      name: 'no secret of any integration appears in a log line',
      method: 'GET',
      path: (c) => integrationsOf(c.botId),
      status: 200,
      check: async (_, c) => {
        const logged = await loggedText(c.app)
        for (const secret of [MCP_TOKEN, MCP_HEADER, VERIFY_TOKEN, 'EAAG-token-0123456789']) expect(logged).not.toContain(secret)
      },
    },
    {
      name: "deleting the chatbot removes its integrations (by the foreign key's cascade)",
      method: 'DELETE',
      path: (c) => `/api/dev/v1/chatbots/${c.botId}`,
      status: 204,
      check: (_, c) => {
        const left = c.app.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM integrations WHERE chatbot_id = ?').get(c.botId)
        expect(left?.n).toBe(0)
        expect(c.app.db.query<{ n: number }, []>('SELECT count(*) AS n FROM integrations').get()?.n).toBe(1)
      },
    },
  ],
)
