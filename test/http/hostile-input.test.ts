import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { type RestApiChat, setUpRestApiChat } from '../channels/rest-api/support/rest-api-chat.ts'

interface Ctx {
  app: TestApp
  chat: RestApiChat
  webIntegrationChatbot: string
  chatappIntegration: string
  conversation: string
}

const api = (rest: string) => `/api/dev/v1${rest}`
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
/** An object with `count` members, each a small value. */
const wideObject = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}`

interface BodyRoute {
  name: string
  method: string
  path: (c: Ctx) => string
  key?: null
  /** Object members the route's bodies may hold. */
  maxKeys?: number
}

const bodyRoutes: BodyRoute[] = [
  { name: 'POST chatbots', method: 'POST', path: () => api('/chatbots') },
  { name: 'PATCH a chatbot', method: 'PATCH', path: (c) => c.chat.path() },
  { name: 'POST flows', method: 'POST', path: (c) => c.chat.path('/flows'), maxKeys: 1_000_000 },
  { name: 'POST a web integration', method: 'POST', path: (c) => api(`/chatbots/${c.webIntegrationChatbot}/integrations/web`) },
  { name: 'POST rest-api messages', method: 'POST', path: (c) => c.chat.path('/integrations/rest-api/messages') },
  { name: "POST an agent's message", method: 'POST', path: (c) => c.chat.path(`/conversations/${c.conversation}/messages`) },
  { name: 'the chatapp webhook', method: 'POST', path: (c) => `/hooks/chatapp/${c.chatappIntegration}`, key: null },
]

function hostileBody(route: BodyRoute, what: string, rawBody: string, code: string, detail: string): Scenario<Ctx> {
  return {
    name: `${route.name}: ${what} answers 400 ${code}`,
    method: route.method,
    path: route.path,
    rawBody,
    headers: { 'content-type': 'application/json' },
    ...(route.key === null ? { key: null } : {}),
    status: 400,
    code,
    check: ({ body }) => expect(body.detail).toBe(detail),
  }
}

/** A body that is JSON but not an object: refused by the parser, before the schema's defaults are merged into it. */
function notAnObjectBody(route: BodyRoute, what: string, rawBody: string): Scenario<Ctx> {
  return {
    name: `${route.name}: ${what} answers 422, the body must be a JSON object`,
    method: route.method,
    path: route.path,
    rawBody,
    headers: { 'content-type': 'application/json' },
    ...(route.key === null ? { key: null } : {}),
    status: 422,
    code: 'validation_failed',
    errorPaths: [''],
    check: ({ body }) => expect(body.detail).toBe('the request body is invalid: the body must be a JSON object'),
  }
}

const listRoutes: { name: string; path: (c: Ctx) => string }[] = [
  { name: 'chatbots', path: () => api('/chatbots') },
  { name: 'flows', path: (c) => c.chat.path('/flows') },
  { name: 'integrations', path: (c) => c.chat.path('/integrations') },
  { name: 'conversations', path: (c) => c.chat.path('/conversations') },
  { name: 'messages', path: (c) => c.chat.path(`/conversations/${c.conversation}/messages`) },
  { name: 'rest-api deliveries', path: (c) => c.chat.path('/integrations/rest-api/deliveries') },
]

const oddNumbers: [string, string][] = [
  ['an exponent', '1e2'],
  ['a hexadecimal number', '0x10'],
  ['a plus sign', '+5'],
  ['a leading zero', '05'],
  ['a fraction', '2.5'],
  ['an empty value', ''],
  ['a 20-digit number', '99999999999999999999'],
  ['1e19', '1e19'],
]

function oddNumber(route: (typeof listRoutes)[number], parameter: 'limit' | 'offset', what: string, value: string): Scenario<Ctx> {
  return {
    name: `${route.name}: ${parameter} spelled with ${what} (${JSON.stringify(value)}) answers 422`,
    method: 'GET',
    path: (c) => `${route.path(c)}?${parameter}=${encodeURIComponent(value)}`,
    status: 422,
    code: 'validation_failed',
    errorPaths: [`/${parameter}`],
  }
}

scenarios<Ctx>(
  'hostile input: deep or wide JSON, oddly spelled numbers, repeated parameters',
  async (app) => {
    const chat = await setUpRestApiChat(app, 'http://127.0.0.1:9/parley')
    const webBot = (await app.call('POST', api('/chatbots'), { body: { name: 'Web' } })).body.id
    const chatapp = await app.call('POST', chat.path('/integrations/chatapp'), {
      body: { phone_number_id: '1234567890', access_token: 'EAAG-test-token-0123456789', verify_token: 'verify-me-please', app_secret: 'app-secret-0123456789' },
    })
    if (chatapp.status !== 201) throw new Error(chatapp.text)
    const said = await app.call('POST', chat.path('/integrations/rest-api/messages'), { body: { user_id: 'user-1', text: 'hello' } })
    return { app, chat, webIntegrationChatbot: webBot, chatappIntegration: chatapp.body.id, conversation: said.body.conversation_id }
  },
  [
    ...bodyRoutes.flatMap((route) => [
      hostileBody(route, 'an array nested 100,000 deep', deepArray(100_000), 'json_too_deep', 'the body is nested more than 64 levels deep'),
      hostileBody(route, 'an object nested 20,000 deep', deepObject(20_000), 'json_too_deep', 'the body is nested more than 64 levels deep'),
      hostileBody(route, 'an object nested 65 deep', deepObject(65), 'json_too_deep', 'the body is nested more than 64 levels deep'),
      hostileBody(
        route,
        `an object of ${route.maxKeys ?? 20_000} members and one more`,
        wideObject((route.maxKeys ?? 20_000) + 1),
        'json_too_many_members',
        `the body has more than ${route.maxKeys ?? 20_000} object members`,
      ),
      notAnObjectBody(route, 'a JSON string of 900,000 characters', JSON.stringify('x'.repeat(900_000))),
      notAnObjectBody(route, 'an array of 200,000 numbers', JSON.stringify(Array.from({ length: 200_000 }, () => 0))),
      notAnObjectBody(route, 'a number', '42'),
      notAnObjectBody(route, 'true', 'true'),
    ]),
    {
      name: 'a body nested 64 deep is within the limit and meets the schema as usual',
      method: 'POST',
      path: api('/chatbots'),
      rawBody: deepObject(64),
      headers: { 'content-type': 'application/json' },
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'a flow body may hold many more members than other bodies (WhatsApp Flow JSON documents are large)',
      method: 'POST',
      path: (c) => c.chat.path('/flows'),
      rawBody: JSON.stringify({ name: 'Wide', type: 'meta', flow: JSON.parse(wideObject(30_000)) }),
      headers: { 'content-type': 'application/json' },
      status: 201,
    },
    {
      name: 'nothing was stored by the refused bodies',
      method: 'GET',
      path: api('/chatbots'),
      status: 200,
      check: ({ body }) => expect(body.items.map((bot: { name: string }) => bot.name).sort()).toEqual(['API bot', 'Web']),
    },
    ...listRoutes.flatMap((route) => oddNumbers.flatMap(([what, value]) => [oddNumber(route, 'limit', what, value), oddNumber(route, 'offset', what, value)])),
    ...listRoutes.flatMap((route): Scenario<Ctx>[] => [
      { name: `${route.name}: limit 0 answers 422`, method: 'GET', path: (c) => `${route.path(c)}?limit=0`, status: 422, errorPaths: ['/limit'] },
      { name: `${route.name}: offset past a billion answers 422`, method: 'GET', path: (c) => `${route.path(c)}?offset=1000000001`, status: 422, errorPaths: ['/offset'] },
      { name: `${route.name}: limit 200 and offset a billion are fine`, method: 'GET', path: (c) => `${route.path(c)}?limit=200&offset=1000000000`, status: 200 },
      {
        name: `${route.name}: a repeated parameter answers 422 naming it`,
        method: 'GET',
        path: (c) => `${route.path(c)}?limit=1&limit=2`,
        status: 422,
        code: 'validation_failed',
        errorPaths: ['/limit'],
        check: ({ body }) => expect(body.detail).toBe('the query string is invalid: limit is given more than once'),
      },
    ]),
    {
      name: 'every repeated parameter is named, once each',
      method: 'GET',
      path: api('/chatbots?offset=0&limit=1&offset=1&limit=2&limit=3'),
      status: 422,
      errorPaths: ['/offset', '/limit'],
    },
  ],
  { PARLEY_OUTBOUND_ALLOW: '127.0.0.1' },
)
