import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/

interface Ctx {
  app: TestApp
  botId: string
  otherKey: string
  otherBotId: string
}

const base = '/api/dev/v1/chatbots'

scenarios<Ctx>(
  'chatbots API',
  async (app) => {
    const otherKey = app.otherWorkspaceKey()
    const bot = await app.call('POST', base, { body: { name: 'Support' } })
    const other = await app.call('POST', base, { body: { name: 'Theirs' }, key: otherKey })
    return { app, botId: bot.body.id, otherKey, otherBotId: other.body.id }
  },
  [
    {
      name: 'creating a chatbot answers 201 with its whole record',
      method: 'POST',
      path: base,
      body: { name: 'Sales' },
      status: 201,
      check: ({ body }) => {
        expect(body).toEqual({ id: expect.stringMatching(ULID), name: 'Sales', entry_flow_id: null, llm: null, created_at: expect.stringMatching(ISO_MS), updated_at: null })
      },
    },
    { name: 'a chatbot needs a name', method: 'POST', path: base, body: {}, status: 422, code: 'validation_failed', errorPaths: ['/name'] },
    { name: 'an empty name is refused', method: 'POST', path: base, body: { name: '' }, status: 422, errorPaths: ['/name'] },
    { name: 'a name over 200 characters is refused', method: 'POST', path: base, body: { name: 'x'.repeat(201) }, status: 422, errorPaths: ['/name'] },
    { name: 'a non-string name is refused', method: 'POST', path: base, body: { name: 5 }, status: 422, errorPaths: ['/name'] },
    { name: 'unknown fields are refused', method: 'POST', path: base, body: { name: 'x', colour: 'red' }, status: 422, errorPaths: ['/colour'] },
    { name: 'a body that is not an object is refused', method: 'POST', path: base, body: ['x'], status: 422, errorPaths: [''] },
    {
      name: 'listing shows this workspace\'s chatbots newest first with a total',
      method: 'GET',
      path: base,
      status: 200,
      check: ({ body }) => {
        expect(body.total).toBe(2)
        expect(body.items.map((b: { name: string }) => b.name)).toEqual(['Sales', 'Support'])
      },
    },
    {
      name: 'limit and offset page through the list',
      method: 'GET',
      path: `${base}?limit=1&offset=1`,
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ total: 2, items: [{ name: 'Support' }] }),
    },
    { name: 'limit above 200 is refused', method: 'GET', path: `${base}?limit=201`, status: 422, errorPaths: ['/limit'] },
    { name: 'limit 0 is refused', method: 'GET', path: `${base}?limit=0`, status: 422, errorPaths: ['/limit'] },
    { name: 'a non-numeric offset is refused', method: 'GET', path: `${base}?offset=abc`, status: 422, errorPaths: ['/offset'] },
    { name: 'a negative offset is refused', method: 'GET', path: `${base}?offset=-1`, status: 422, errorPaths: ['/offset'] },
    {
      name: 'one chatbot is read by id',
      method: 'GET',
      path: (c) => `${base}/${c.botId}`,
      status: 200,
      check: ({ body }, c) => expect(body).toMatchObject({ id: c.botId, name: 'Support' }),
    },
    { name: 'an unknown id answers 404', method: 'GET', path: `${base}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, status: 404, code: 'not_found' },
    {
      name: 'renaming changes only the name and sets updated_at',
      method: 'PATCH',
      path: (c) => `${base}/${c.botId}`,
      body: { name: 'Support 2' },
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ name: 'Support 2', entry_flow_id: null, updated_at: expect.stringMatching(ISO_MS) }),
    },
    { name: 'an empty patch is accepted', method: 'PATCH', path: (c) => `${base}/${c.botId}`, body: {}, status: 200 },
    {
      name: 'entry_flow_id must name a flow of this chatbot',
      method: 'PATCH',
      path: (c) => `${base}/${c.botId}`,
      body: { entry_flow_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' },
      status: 422,
      errorPaths: ['/entry_flow_id'],
    },
    {
      name: 'entry_flow_id null clears it',
      method: 'PATCH',
      path: (c) => `${base}/${c.botId}`,
      body: { entry_flow_id: null },
      status: 200,
      check: ({ body }) => expect(body.entry_flow_id).toBeNull(),
    },
    { name: 'another workspace\'s chatbot is not visible', method: 'GET', path: (c) => `${base}/${c.otherBotId}`, status: 404, code: 'not_found' },
    { name: 'another workspace\'s chatbot cannot be renamed', method: 'PATCH', path: (c) => `${base}/${c.otherBotId}`, body: { name: 'mine' }, status: 404 },
    { name: 'another workspace\'s chatbot cannot be deleted', method: 'DELETE', path: (c) => `${base}/${c.otherBotId}`, status: 404 },
    {
      name: 'the other workspace still has its chatbot, untouched',
      method: 'GET',
      path: (c) => `${base}/${c.otherBotId}`,
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }) => expect(body.name).toBe('Theirs'),
    },
    {
      name: 'the other workspace lists only its own chatbot',
      method: 'GET',
      path: base,
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ total: 1, items: [{ name: 'Theirs' }] }),
    },
    {
      name: 'deleting answers 204 with no body',
      method: 'DELETE',
      path: (c) => `${base}/${c.botId}`,
      status: 204,
      check: ({ text }) => expect(text).toBe(''),
    },
    { name: 'a deleted chatbot answers 404', method: 'GET', path: (c) => `${base}/${c.botId}`, status: 404 },
    { name: 'deleting twice answers 404', method: 'DELETE', path: (c) => `${base}/${c.botId}`, status: 404 },
  ],
)
