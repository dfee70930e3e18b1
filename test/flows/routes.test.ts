import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import {
  brokenFlow,
  createChatbot,
  createFlow,
  flowPath,
  flowsPath,
  helloFlow,
  ISO_MS,
  publish,
  ULID,
  UNKNOWN_ID,
} from './flow-fixtures.ts'

interface Ctx {
  app: TestApp
  botId: string
  /** A second chatbot of the same workspace. */
  siblingBotId: string
  draftId: string
  publishedId: string
  brokenId: string
  siblingFlowId: string
  otherKey: string
  otherBotId: string
  otherFlowId: string
}

const json = { 'content-type': 'application/json' }

const crossWorkspace: Scenario<Ctx>[] = (
  [
    ['list', 'GET', (c) => flowsPath(c.otherBotId), undefined],
    ['create', 'POST', (c) => flowsPath(c.otherBotId), { name: 'x', type: 'conversation' }],
    ['get', 'GET', (c) => flowPath(c.otherBotId, c.otherFlowId), undefined],
    ['update', 'PATCH', (c) => flowPath(c.otherBotId, c.otherFlowId), { name: 'mine' }],
    ['validate', 'POST', (c) => `${flowPath(c.otherBotId, c.otherFlowId)}/validate`, undefined],
    ['publish', 'POST', (c) => `${flowPath(c.otherBotId, c.otherFlowId)}/publish`, undefined],
    ['delete', 'DELETE', (c) => flowPath(c.otherBotId, c.otherFlowId), undefined],
  ] as [string, string, (c: Ctx) => string, unknown][]
).map(([action, method, path, body]) => ({
  name: `${action}: another workspace's chatbot and flow answer 404`,
  method,
  path,
  body,
  status: 404,
  code: 'not_found',
}))

scenarios<Ctx>(
  'flows API',
  async (app) => {
    const botId = await createChatbot(app, 'Support')
    const siblingBotId = await createChatbot(app, 'Sales')
    const otherKey = app.otherWorkspaceKey()
    const otherBotId = await createChatbot(app, 'Theirs', otherKey)
    const otherFlowId = await createFlow(app, otherBotId, { name: 'Theirs', type: 'conversation', flow: helloFlow() }, otherKey)
    const siblingFlowId = await createFlow(app, siblingBotId, { name: 'Sibling', type: 'conversation', flow: helloFlow() })
    const publishedId = await createFlow(app, botId, { name: 'Live', type: 'conversation', flow: helloFlow() })
    await publish(app, botId, publishedId)
    const brokenId = await createFlow(app, botId, { name: 'Broken', type: 'conversation', flow: brokenFlow() })
    const draftId = await createFlow(app, botId, { name: 'Draft', type: 'conversation', flow: helloFlow() })
    return { app, botId, siblingBotId, draftId, publishedId, brokenId, siblingFlowId, otherKey, otherBotId, otherFlowId }
  },
  [
    // Create
    {
      name: 'creating a flow answers 201 with the whole draft',
      method: 'POST',
      path: (c) => flowsPath(c.botId),
      body: { name: 'Welcome', type: 'conversation', flow: helloFlow() },
      status: 201,
      check: ({ body }, c) =>
        expect(body).toEqual({
          id: expect.stringMatching(ULID),
          chatbot_id: c.botId,
          name: 'Welcome',
          type: 'conversation',
          status: 'draft',
          flow: helloFlow(),
          created_at: expect.stringMatching(ISO_MS),
          updated_at: null,
          published_at: null,
          published_version: null,
          has_unpublished_changes: false,
        }),
    },
    {
      name: 'without flow, the definition is an empty object',
      method: 'POST',
      path: (c) => flowsPath(c.botId),
      body: { name: 'Empty', type: 'meta' },
      status: 201,
      check: ({ body }) => expect(body).toMatchObject({ type: 'meta', status: 'draft', flow: {}, updated_at: null }),
    },
    {
      name: 'a draft may be saved with errors in it',
      method: 'POST',
      path: (c) => flowsPath(c.botId),
      body: { name: 'Unfinished', type: 'conversation', flow: { states: { a: {} } } },
      status: 201,
    },
    { name: 'a flow needs a name', method: 'POST', path: (c) => flowsPath(c.botId), body: { type: 'conversation' }, status: 422, code: 'validation_failed', errorPaths: ['/name'] },
    { name: 'an empty name is refused', method: 'POST', path: (c) => flowsPath(c.botId), body: { name: '', type: 'conversation' }, status: 422, errorPaths: ['/name'] },
    { name: 'a flow needs a type', method: 'POST', path: (c) => flowsPath(c.botId), body: { name: 'x' }, status: 422, errorPaths: ['/type'] },
    {
      name: 'an unknown type is refused, naming the types',
      method: 'POST',
      path: (c) => flowsPath(c.botId),
      body: { name: 'x', type: 'chat' },
      status: 422,
      errorPaths: ['/type'],
      check: ({ body }) => expect(body.errors[0].message).toBe('must be one of: "conversation", "meta"'),
    },
    { name: 'flow must be an object, not an array', method: 'POST', path: (c) => flowsPath(c.botId), body: { name: 'x', type: 'meta', flow: [] }, status: 422, errorPaths: ['/flow'] },
    { name: 'flow must be an object, not a string', method: 'POST', path: (c) => flowsPath(c.botId), body: { name: 'x', type: 'meta', flow: '{}' }, status: 422, errorPaths: ['/flow'] },
    { name: 'flow must be an object, not null', method: 'POST', path: (c) => flowsPath(c.botId), body: { name: 'x', type: 'meta', flow: null }, status: 422, errorPaths: ['/flow'] },
    { name: 'unknown fields are refused', method: 'POST', path: (c) => flowsPath(c.botId), body: { name: 'x', type: 'meta', status: 'published' }, status: 422, errorPaths: ['/status'] },
    { name: 'malformed JSON answers 400', method: 'POST', path: (c) => flowsPath(c.botId), rawBody: '{"name": "x", ', headers: json, status: 400, code: 'malformed_json' },
    { name: 'an unknown chatbot answers 404 on create', method: 'POST', path: flowsPath(UNKNOWN_ID), body: { name: 'x', type: 'meta' }, status: 404, code: 'not_found' },
    { name: 'no API key answers 401', method: 'GET', path: (c) => flowsPath(c.botId), key: null, status: 401 },

    // List
    {
      name: 'the list shows this chatbot\'s flows newest first, each with only its summary fields',
      method: 'GET',
      path: (c) => flowsPath(c.botId),
      status: 200,
      check: ({ body }, c) => {
        expect(body.total).toBe(6)
        expect(body.items.map((f: { name: string }) => f.name)).toEqual(['Unfinished', 'Empty', 'Welcome', 'Draft', 'Broken', 'Live'])
        for (const item of body.items) expect(Object.keys(item).sort()).toEqual(['chatbot_id', 'created_at', 'id', 'name', 'status', 'type'])
        expect(body.items.at(-1)).toEqual({ id: c.publishedId, chatbot_id: c.botId, name: 'Live', type: 'conversation', status: 'published', created_at: expect.stringMatching(ISO_MS) })
      },
    },
    {
      name: 'limit and offset page through the list',
      method: 'GET',
      path: (c) => `${flowsPath(c.botId)}?limit=2&offset=4`,
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ total: 6, items: [{ name: 'Broken' }, { name: 'Live' }] }),
    },
    { name: 'limit above 200 is refused', method: 'GET', path: (c) => `${flowsPath(c.botId)}?limit=201`, status: 422, errorPaths: ['/limit'] },
    {
      name: 'another chatbot of the workspace lists only its own flows',
      method: 'GET',
      path: (c) => flowsPath(c.siblingBotId),
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ total: 1, items: [{ name: 'Sibling' }] }),
    },
    { name: 'an unknown chatbot answers 404 on list', method: 'GET', path: flowsPath(UNKNOWN_ID), status: 404, code: 'not_found' },

    // Get
    {
      name: 'one flow is read with its definition',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.draftId),
      status: 200,
      check: ({ body }, c) => expect(body).toMatchObject({ id: c.draftId, name: 'Draft', status: 'draft', flow: helloFlow(), published_at: null }),
    },
    {
      name: 'a published flow shows when it was published',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.publishedId),
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ status: 'published', published_at: expect.stringMatching(ISO_MS), published_version: 1, has_unpublished_changes: false }),
    },
    { name: 'an unknown flow answers 404', method: 'GET', path: (c) => flowPath(c.botId, UNKNOWN_ID), status: 404, code: 'not_found' },
    { name: 'a flow read through another chatbot of the workspace answers 404', method: 'GET', path: (c) => flowPath(c.botId, c.siblingFlowId), status: 404 },
    { name: 'a flow under an unknown chatbot answers 404', method: 'GET', path: (c) => flowPath(UNKNOWN_ID, c.draftId), status: 404 },

    // Update
    {
      name: 'renaming changes only the name and sets updated_at',
      method: 'PATCH',
      path: (c) => flowPath(c.botId, c.draftId),
      body: { name: 'Draft 2' },
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ name: 'Draft 2', status: 'draft', flow: helloFlow(), updated_at: expect.stringMatching(ISO_MS) }),
    },
    {
      name: 'flow replaces the definition entirely',
      method: 'PATCH',
      path: (c) => flowPath(c.botId, c.draftId),
      body: { flow: { version: 1, start: 'only', states: { only: { end: true } } } },
      status: 200,
      check: ({ body }) => expect(body.flow).toEqual({ version: 1, start: 'only', states: { only: { end: true } } }),
    },
    {
      name: 'the type cannot change, and the answer says so',
      method: 'PATCH',
      path: (c) => flowPath(c.botId, c.draftId),
      body: { type: 'meta' },
      status: 422,
      code: 'validation_failed',
      errorPaths: ['/type'],
      check: ({ body }) => expect(body.errors[0].message).toBe('cannot change after creation; create a new flow of the other type instead'),
    },
    { name: 'sending the same type is refused too', method: 'PATCH', path: (c) => flowPath(c.botId, c.draftId), body: { type: 'conversation', name: 'x' }, status: 422, errorPaths: ['/type'] },
    { name: 'a PATCH flow that is not an object is refused', method: 'PATCH', path: (c) => flowPath(c.botId, c.draftId), body: { flow: [1] }, status: 422, errorPaths: ['/flow'] },
    { name: 'unknown fields in a PATCH are refused', method: 'PATCH', path: (c) => flowPath(c.botId, c.draftId), body: { status: 'draft' }, status: 422, errorPaths: ['/status'] },
    { name: 'malformed JSON in a PATCH answers 400', method: 'PATCH', path: (c) => flowPath(c.botId, c.draftId), rawBody: '{', headers: json, status: 400 },
    { name: 'patching an unknown flow answers 404', method: 'PATCH', path: (c) => flowPath(c.botId, UNKNOWN_ID), body: { name: 'x' }, status: 404 },
    {
      name: 'nothing changed by the refused PATCH requests',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.draftId),
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ name: 'Draft 2', type: 'conversation', flow: { start: 'only' } }),
    },

    // Validate
    {
      name: 'validating a valid flow answers 200 with no errors',
      method: 'POST',
      path: (c) => `${flowPath(c.botId, c.draftId)}/validate`,
      status: 200,
      check: ({ body }) => expect(body).toEqual({ valid: true, errors: [], warnings: [] }),
    },
    {
      name: 'validating an invalid flow answers 200 with every error and warning, each with path, code and message',
      method: 'POST',
      path: (c) => `${flowPath(c.botId, c.brokenId)}/validate`,
      status: 200,
      check: ({ body }) =>
        expect(body).toEqual({
          valid: false,
          errors: [
            { path: '/states/stuck', code: 'no_way_out', message: expect.any(String) },
            { path: '/states/hello/on/0/to', code: 'unknown_state', message: expect.any(String) },
          ],
          warnings: [{ path: '/states/stuck', code: 'unreachable_state', message: expect.any(String) }],
        }),
    },
    {
      name: 'validating does not change the status',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.brokenId),
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ status: 'draft', updated_at: null, published_at: null }),
    },
    {
      name: 'validating a published flow leaves it published',
      method: 'POST',
      path: (c) => `${flowPath(c.botId, c.publishedId)}/validate`,
      status: 200,
      check: async ({ body }, c) => {
        expect(body.valid).toBe(true)
        expect((await c.app.call('GET', flowPath(c.botId, c.publishedId))).body.status).toBe('published')
      },
    },
    { name: 'validating an unknown flow answers 404', method: 'POST', path: (c) => `${flowPath(c.botId, UNKNOWN_ID)}/validate`, status: 404 },

    // Publish
    {
      name: 'publishing an invalid flow answers 422 flow_invalid with the same errors as validate',
      method: 'POST',
      path: (c) => `${flowPath(c.botId, c.brokenId)}/publish`,
      status: 422,
      code: 'flow_invalid',
      errorPaths: ['/states/stuck', '/states/hello/on/0/to'],
      check: async ({ body, text }, c) => {
        const validated = await c.app.call('POST', `${flowPath(c.botId, c.brokenId)}/validate`)
        expect(body.errors).toEqual(validated.body.errors)
        // (Read from the text: the shared scenario check has already matched `body.detail`.)
        expect(JSON.parse(text).detail).toBe('the flow has 2 validation errors and was not published; see errors, or POST .../validate')
      },
    },
    {
      name: 'the refused flow stays a draft',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.brokenId),
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ status: 'draft', published_at: null, published_version: null }),
    },
    {
      name: 'publishing a valid draft answers 200 with id, status and published_at only',
      method: 'POST',
      path: (c) => `${flowPath(c.botId, c.draftId)}/publish`,
      status: 200,
      check: ({ body }, c) => expect(body).toEqual({ id: c.draftId, status: 'published', published_at: expect.stringMatching(ISO_MS) }),
    },
    {
      name: 'the flow is then published, as version 1',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.draftId),
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: false, published_at: expect.stringMatching(ISO_MS) }),
    },
    { name: 'publishing an unknown flow answers 404', method: 'POST', path: (c) => `${flowPath(c.botId, UNKNOWN_ID)}/publish`, status: 404 },

    // Across workspaces
    ...crossWorkspace,
    {
      name: 'another workspace\'s key cannot reach this workspace\'s flows either',
      method: 'GET',
      path: (c) => flowPath(c.botId, c.draftId),
      key: (c) => c.otherKey,
      status: 404,
    },
    {
      name: 'another workspace\'s key cannot publish this workspace\'s flow',
      method: 'POST',
      path: (c) => `${flowPath(c.botId, c.brokenId)}/publish`,
      key: (c) => c.otherKey,
      status: 404,
    },
    {
      name: 'the other workspace\'s flow is untouched and still its own',
      method: 'GET',
      path: (c) => flowPath(c.otherBotId, c.otherFlowId),
      key: (c) => c.otherKey,
      status: 200,
      check: ({ body }) => expect(body).toMatchObject({ name: 'Theirs', status: 'draft' }),
    },

    // Delete
    { name: 'deleting a draft answers 204 with no body', method: 'DELETE', path: (c) => flowPath(c.botId, c.brokenId), status: 204, check: ({ text }) => expect(text).toBe('') },
    { name: 'the deleted draft answers 404', method: 'GET', path: (c) => flowPath(c.botId, c.brokenId), status: 404 },
    { name: 'deleting a published flow answers 204', method: 'DELETE', path: (c) => flowPath(c.botId, c.publishedId), status: 204 },
    { name: 'the deleted published flow answers 404', method: 'GET', path: (c) => flowPath(c.botId, c.publishedId), status: 404 },
    { name: 'deleting it twice answers 404', method: 'DELETE', path: (c) => flowPath(c.botId, c.publishedId), status: 404 },
    { name: 'a flow cannot be deleted through another chatbot', method: 'DELETE', path: (c) => flowPath(c.botId, c.siblingFlowId), status: 404 },
    {
      name: 'the list no longer shows deleted flows',
      method: 'GET',
      path: (c) => flowsPath(c.botId),
      status: 200,
      check: ({ body }) => expect(body.items.map((f: { name: string }) => f.name)).toEqual(['Unfinished', 'Empty', 'Welcome', 'Draft 2']),
    },
  ],
)
