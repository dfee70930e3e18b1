import fc from 'fast-check'
import leadCapture from '../../engine/fixtures/lead-capture.json'
import salesAndSupport from '../../engine/fixtures/sales-and-support.json'
import chatappMessages from '../../fixtures/chatapp-webhooks/message.json'
import chatappStatuses from '../../fixtures/chatapp-webhooks/message_status.json'
import metaFlows from '../../fixtures/whatsapp-flows/flows-v6_0.json'

/**
 * fast-check arbitraries derived from Parley's own OpenAPI document: for every operation a
 * request that is valid-ish (so it gets past validation and reaches the services) or mutated
 * in one place (wrong types, boundary numbers, missing and extra fields, odd headers, bodies
 * that are not JSON or nest absurdly deep, ids of another workspace or of nothing).
 *
 * What is generated is a plan, not bytes: ids are named (`@@flow_id@@`) and filled in from the
 * fixtures when the request is sent, so a DELETE that removed a fixture does not strand the
 * rest of the run, and the printed request is the concrete one that was sent.
 */

export interface JsonSchema {
  type?: string
  anyOf?: JsonSchema[]
  const?: unknown
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  patternProperties?: Record<string, JsonSchema>
  items?: JsonSchema
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  maxProperties?: number
  pattern?: string
  format?: string
  not?: JsonSchema
  description?: string
}

interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: JsonSchema
}

interface OpenApiOperation {
  operationId?: string
  parameters?: OpenApiParameter[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  security?: unknown[]
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
}

export interface FuzzOperation {
  id: string
  method: string
  /** The path as documented, with `{name}` placeholders. */
  template: string
  pathParams: string[]
  query: { name: string; schema: JsonSchema }[]
  /** The JSON body's schema; undefined when the operation takes no body. */
  body?: JsonSchema
  secured: boolean
}

/** Every documented route and method (HTML and script assets included: they must not 5xx either). */
export function operationsOf(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = []
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? []
      operations.push({
        id: operation.operationId ?? `${method}_${template}`,
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: operation.requestBody ? (operation.requestBody.content?.['application/json']?.schema ?? {}) : undefined,
        secured: !Array.isArray(operation.security) || operation.security.length > 0,
      })
    }
  }
  return operations
}

/** Where a path parameter comes from: the scene's real id, another workspace's, an unknown ULID, or a literal. */
export type PathValue = { from: 'scene' } | { from: 'foreign' } | { from: 'unknown' } | { literal: string }

/** A body as bytes to build: JSON of a value, text as is, or a long repetition (built at send time). */
export type BodyPlan =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'repeat'; open: string; count: number; middle: string; close: string }

export type AuthPlan = 'key' | 'none' | 'unknown-key' | 'foreign-key' | 'malformed'

export interface RequestPlan {
  operation: string
  method: string
  template: string
  /** Which fixture scene (a chatbot with its flows, integrations and a conversation) the ids come from. */
  scene: number
  params: Record<string, PathValue>
  query: [string, string][]
  auth: AuthPlan
  /** undefined: application/json when there is a body; null: no Content-Type at all. */
  contentType?: string | null
  headers: [string, string][]
  body: BodyPlan
  /** What was done to the request, for the counts and the report. */
  mutation: string
}

// ---------------------------------------------------------------------------------------------
// Hostile values

/** Numbers and number-like strings that strict parsers must refuse or bound. */
export const BOUNDARY_NUMBER_TEXT = ['0', '-1', '1e19', '12345678901234567890', '0x10', '+5', '1e2', '5.0', '5.5', ' 5', '5 ', '', 'NaN', 'Infinity', '-0', '9007199254740993', '1_000', '٣']

const UNICODE_STRINGS = ['héllo wörld', '你好', '🙂👍🏽', 'مرحبا', '\u202eevil', 'a\u0000b', 'zero\u200bwidth', '\ud800', 'e\u0301', '\uffff', '\r\n', '%00', '../..', '<script>x</script>', "' OR 1=1 --", '${7*7}{{7*7}}']

const wrongTypeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e19, 12345678901234567890, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.constantFrom('0x10', '+5', '1e2', '', ' ', 'true', 'null', '[]', '{}'),
  fc.constantFrom([], [null], {}, { a: 1 }, [[[[]]]]),
  fc.constantFrom(...UNICODE_STRINGS),
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 30, max: 400 }).map(nestedArray),
  fc.integer({ min: 30, max: 400 }).map(nestedObject),
)

function nestedArray(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

function nestedObject(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

const ODD_CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/jsonx',
  '',
  ';;;',
  'application/xml',
]

const ODD_HEADERS: [string, string][] = [
  ['x-forwarded-for', '1.2.3.4, garbage, ::1'],
  ['x-forwarded-for', '999.999.999.999'],
  ['accept', 'text/html'],
  ['accept', 'application/xml;q=0.9, */*;q=0'],
  ['accept-encoding', 'gzip, br, zstd, identity;q=0'],
  ['origin', 'null'],
  ['origin', 'https://evil.example'],
  ['x-request-id', 'x'.repeat(2000)],
  ['idempotency-key', 'caf\u00e9\u00ff'],
  ['x-hub-signature-256', 'sha256=zz'],
  ['x-hub-signature-256', `sha256=${'0'.repeat(64)}`],
  ['cookie', 'a=b; '.repeat(200)],
  ['if-none-match', '*'],
  ['range', 'bytes=0-1'],
  ['expect', '100-continue'],
  ['x-http-method-override', 'DELETE'],
]

const MALFORMED_BODIES = [
  '{',
  '}',
  '{"name":}',
  '{"name":"x",}',
  "{'name':'x'}",
  '{"name":"x"}garbage',
  '\ufeff{"name":"x"}',
  'NaN',
  '1e999',
  '"\\ud800"',
  '{"name":"\\u0000"}',
  '{"__proto__":{"polluted":true},"name":"x"}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"name":"a","name":"b"}',
  'null',
  'true',
  '[]',
  '[{"name":"x"}]',
  '"name"',
  ' ',
  '\u0000',
  '{"name":"x"}\u0000',
  '{"widget_config":{"width":1e400}}',
  '{"widget_config":{"width":-0,"height":4e2,"font_size":12.000000000000001}}',
  '{"name":"w","widget_config":{"font_size":1E1}}',
  '{"active":true,"active":false}',
  '{"status":"closed","status":"bot"}',
  '{"user_id":"u","text":"hi","contact_details":{"n":12345678901234567890,"m":1e308,"o":-1e-400}}',
]

const rawBody: fc.Arbitrary<{ body: BodyPlan; mutation: string }> = fc.oneof(
  fc.constantFrom(...MALFORMED_BODIES).map((text) => ({ body: { kind: 'text', text } as BodyPlan, mutation: 'body:malformed' })),
  fc.integer({ min: 1, max: 100_000 }).map((count) => ({ body: { kind: 'repeat', open: '[', count, middle: '', close: '' } as BodyPlan, mutation: 'body:open-brackets' })),
  fc.integer({ min: 65, max: 20_000 }).map((count) => ({ body: { kind: 'repeat', open: '{"a":', count, middle: '1', close: '}' } as BodyPlan, mutation: 'body:deep-object' })),
  fc.integer({ min: 65, max: 20_000 }).map((count) => ({ body: { kind: 'repeat', open: '[', count, middle: '1', close: ']' } as BodyPlan, mutation: 'body:deep-array' })),
  fc.integer({ min: 1_100_000, max: 1_300_000 }).map((count) => ({ body: { kind: 'repeat', open: '"', count: 1, middle: 'x'.repeat(count), close: '"' } as BodyPlan, mutation: 'body:too-large' })),
  fc.integer({ min: 20_001, max: 40_000 }).map((count) => ({ body: { kind: 'json', value: manyKeys(count) } as BodyPlan, mutation: 'body:many-keys' })),
)

function manyKeys(count: number): Record<string, number> {
  const value: Record<string, number> = {}
  for (let i = 0; i < count; i++) value[`k${i}`] = i
  return value
}

// ---------------------------------------------------------------------------------------------
// Valid-ish values from a schema

/** Values a field of this name should take to get past validation into the services. */
function hintFor(name: string | undefined, schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  switch (name) {
    case 'webhook_url':
      return fc.constantFrom('@@webhook_url@@', 'http://127.0.0.1:1/unreachable', 'https://10.0.0.1/private', 'ftp://example.com/x', 'not a url')
    case 'entry_flow_id':
      return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('@@flow_id@@', null) },
        { weight: 1, arbitrary: fc.constantFrom('@@meta_flow_id@@', '@@foreign.flow_id@@', '@@unknown@@') },
      )
    case 'flow':
      return fc.constantFrom<unknown>(HELLO_FLOW, leadCapture, salesAndSupport, ...Object.values(metaFlows).slice(0, 3), {}, { version: 1 }, { version: 1, start: 'x', states: { x: {} } })
    case 'contact_id':
      return fc.constantFrom('@@contact_id@@', '@@foreign.contact_id@@', '@@unknown@@')
    case 'conversation_id':
      return fc.constantFrom('@@conversation_id@@', '@@foreign.conversation_id@@', '@@unknown@@')
    case 'hub.verify_token':
      return fc.constantFrom('@@verify_token@@', 'wrong-token')
    case 'hub.mode':
      return fc.constantFrom('subscribe', 'unsubscribe')
    case 'default_country':
      return fc.constantFrom('DE', 'US', 'GB', 'de', 'XX', null)
    case 'phone_number_id':
      return fc.constantFrom('@@phone_number_id@@', '1122334455667', '106540352242922')
    case 'allowed_domains':
      return fc.array(fc.constantFrom('example.com', '*.example.com', 'localhost:3000', 'sub.example.org', '127.0.0.1'), { maxLength: 3 })
    case 'user_id':
      return fc.constantFrom('user-4711', 'ada@lovelace.dev', '+44 20 7946 0958', '@@user_id@@', 'U'.repeat(256))
    case 'limit':
      return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 100 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 101, 1000) })
    case 'base_url':
      return fc.constantFrom('https://llm.example.com/v1', 'http://127.0.0.1:1/v1', 'ftp://example.com', 'not a url')
    case 'text':
      return fc.oneof(fc.constantFrom('hello', 'bye', 'sales', '1', 'ada@lovelace.dev'), fc.string({ minLength: 1, maxLength: 30 }))
  }
  if (schema.description?.startsWith("The provider's webhook body")) return chatappWebhookBody
  return undefined
}

const HELLO_FLOW = {
  version: 1,
  start: 'hello',
  states: {
    hello: { say: [{ text: 'Hello!' }], on: [{ equals: 'bye', to: 'bye' }, { to: 'hello' }] },
    bye: { say: [{ text: 'Bye!' }], end: true },
  },
}

/** The provider's recorded webhooks, addressed to the fixture's phone number, with a fresh message id. */
const chatappWebhookBody: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(...Object.values(chatappMessages), ...Object.values(chatappStatuses)), fc.nat(), fc.boolean())
  .map(([recorded, n, ours]) => {
    const text = JSON.stringify(recorded)
      .replaceAll('"1122334455667"', ours ? '"@@phone_number_id@@"' : '"1122334455667"')
      .replaceAll('wamid.xyzxyz', `wamid.fuzz${n}`)
    return JSON.parse(text) as unknown
  })

/** A value the schema accepts (most of the time: patterns and hints may stray on purpose). */
export function validValue(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
  const hinted = hintFor(name, schema)
  if (hinted) return hinted
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((member) => validValue({ ...member, description: member.description ?? schema.description }, name)))
  switch (schema.type) {
    case 'string':
      return stringValue(schema)
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + 1000) })
    case 'number':
      return fc.oneof(
        fc.integer({ min: Math.ceil(schema.minimum ?? -1000), max: Math.floor(schema.maximum ?? 1000) }),
        fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true }),
      )
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(validValue(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) })
    case 'object':
      return objectValue(schema)
  }
  return fc.jsonValue({ maxDepth: 3 })
}

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0
  const max = Math.min(schema.maxLength ?? 40, 40)
  if (schema.pattern) {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity))
      return fc.oneof({ weight: 5, arbitrary: matching }, { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, max) }) })
    } catch {
      // A pattern fast-check cannot invert: plain strings, which mostly fail validation.
    }
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, max) }) },
    { weight: 1, arbitrary: fc.constantFrom(...UNICODE_STRINGS).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity)) },
    { weight: 1, arbitrary: fc.constant('y'.repeat(schema.maxLength ?? 200)) },
  )
}

function objectValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {}).filter(([, member]) => !member.not)
  if (properties.length === 0 && schema.patternProperties) {
    const [pattern, member] = Object.entries(schema.patternProperties)[0] ?? ['', {}]
    const key = pattern === '^(.*)$' ? fc.constantFrom('plan', 'Company Name', 'vip', 'x'.repeat(80)) : fc.string({ maxLength: 10 })
    return fc.dictionary(key, validValue(member), { maxKeys: Math.min(schema.maxProperties ?? 4, 4) })
  }
  if (properties.length === 0) return fc.jsonValue({ maxDepth: 3 }).map((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}))
  const record: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [key, member] of properties) record[key] = validValue(member, key)
  const required = (schema.required ?? []).filter((key) => key in record)
  return fc.record(record, { requiredKeys: required })
}

// ---------------------------------------------------------------------------------------------
// Mutations of a valid value

type Path = (string | number)[]

function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path)
  if (path.length > 6) return out
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], out))
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out)
  return out
}

function setAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement
  const copy: unknown = structuredClone(value)
  let node = copy as Record<string | number, unknown>
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (remove) {
    if (Array.isArray(node)) node.splice(last as number, 1)
    else delete node[last]
  } else node[last] = replacement
  return copy
}

/** One change to a valid body: a field of the wrong type or out of bounds, a missing or an extra field. */
function mutatedBody(valid: fc.Arbitrary<unknown>, schema: JsonSchema): fc.Arbitrary<{ value: unknown; mutation: string }> {
  const required = schema.required ?? []
  return fc.tuple(valid, fc.nat(), wrongTypeValue, fc.nat({ max: 9 })).map(([value, pick, hostile, how]) => {
    const paths = pathsOf(value)
    const path = paths[pick % paths.length] ?? []
    if (how <= 4) return { value: setAt(value, path, hostile), mutation: path.length === 0 ? 'body:root-replaced' : 'body:field-replaced' }
    if (how <= 6 && path.length > 0) return { value: setAt(value, path, undefined, true), mutation: 'body:field-removed' }
    if (how === 7 && required.length > 0 && value !== null && typeof value === 'object') {
      return { value: setAt(value, [required[pick % required.length] as string], undefined, true), mutation: 'body:required-removed' }
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const extraKey = ['extra', '__proto__', 'constructor', 'id', 'workspace_id', 'x'.repeat(300), ''][pick % 7] as string
      return { value: { ...(value as object), [extraKey]: hostile }, mutation: 'body:extra-field' }
    }
    return { value: hostile, mutation: 'body:root-replaced' }
  })
}

// ---------------------------------------------------------------------------------------------
// Whole requests

const pathValue: fc.Arbitrary<PathValue> = fc.oneof(
  { weight: 14, arbitrary: fc.constant({ from: 'scene' } as PathValue) },
  { weight: 2, arbitrary: fc.constant({ from: 'foreign' } as PathValue) },
  { weight: 1, arbitrary: fc.constant({ from: 'unknown' } as PathValue) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom('', ' ', '..', '%2e%2e', '%2F', '%00', '%', '%ZZ', '01arz3ndektsv4rrffq69g5fav', '1e2', '-1', '0x10', 'null', '🙂', '%F0%9F%99%82', '%C0%AF'),
        fc.integer({ min: 200, max: 8_000 }).map((n) => 'A'.repeat(n)),
        fc.string({ maxLength: 30 }).map(encodeURIComponent),
      )
      .map((literal) => ({ literal }) as PathValue),
  },
)

function queryArbitrary(operation: FuzzOperation): fc.Arbitrary<{ query: [string, string][]; mutation?: string }> {
  // A cursor is minted by the server for the next page; the fuzz has none, so a valid query leaves
  // it out (the mutations below still send made-up ones).
  const validParameter = (p: { name: string; schema: JsonSchema }) =>
    p.name === 'cursor' ? fc.constant(undefined) : fc.option(validValue(p.schema, p.name).map(String), { nil: undefined })
  const valid = fc.tuple(...operation.query.map(validParameter)).map((values) => {
    const query: [string, string][] = []
    operation.query.forEach((p, index) => {
      const value = values[index]
      if (value !== undefined) query.push([p.name, value])
    })
    return query
  })
  const names = operation.query.map((p) => p.name)
  const anyName = names.length > 0 ? fc.constantFrom(...names) : fc.constant('limit')
  return fc.oneof(
    { weight: 30, arbitrary: valid.map((query) => ({ query })) },
    {
      weight: 15,
      arbitrary: fc.tuple(valid, anyName, fc.constantFrom(...BOUNDARY_NUMBER_TEXT, ...UNICODE_STRINGS)).map(([query, name, value]) => ({
        query: [...query.filter(([n]) => n !== name), [name, value] as [string, string]],
        mutation: 'query:boundary',
      })),
    },
    {
      weight: 10,
      arbitrary: fc.tuple(valid, anyName, fc.constantFrom('1', '2', '50', 'bot', 'closed')).map(([query, name, value]) => ({
        query: [...query, [name, value] as [string, string], [name, value] as [string, string]],
        mutation: 'query:repeated',
      })),
    },
    {
      weight: 5,
      arbitrary: fc.tuple(valid, fc.constantFrom('unknown', 'limit[]', 'offset[a]', '__proto__', 'x'.repeat(500), ''), fc.constantFrom('1', '', 'x')).map(([query, name, value]) => ({
        query: [...query, [name, value] as [string, string]],
        mutation: 'query:unknown-parameter',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(anyName, fc.integer({ min: 5_000, max: 70_000 })).map(([name, n]) => ({ query: [[name, '9'.repeat(n)] as [string, string]], mutation: 'query:huge' })),
    },
  )
}

const authArbitrary: fc.Arbitrary<AuthPlan> = fc.oneof(
  { weight: 24, arbitrary: fc.constant('key' as AuthPlan) },
  { weight: 1, arbitrary: fc.constantFrom<AuthPlan>('none', 'unknown-key', 'foreign-key', 'malformed') },
)

/** Requests for one operation: mostly valid-ish, the rest mutated in one place. */
export function requestArbitrary(operation: FuzzOperation, sceneCount: number): fc.Arbitrary<RequestPlan> {
  const params = fc.tuple(...operation.pathParams.map(() => pathValue)).map((values) => Object.fromEntries(operation.pathParams.map((name, i) => [name, values[i] as PathValue])))
  const validBody = operation.body ? validValue(operation.body) : undefined
  // fetch cannot send a GET or HEAD with a body (and no route reads one).
  const bodyless = operation.method === 'GET' || operation.method === 'HEAD'
  const body: fc.Arbitrary<{ body: BodyPlan; mutation?: string }> = bodyless
    ? fc.constant({ body: { kind: 'none' } as BodyPlan })
    : validBody
    ? fc.oneof(
        { weight: 8, arbitrary: validBody.map((value) => ({ body: { kind: 'json', value } as BodyPlan })) },
        { weight: 6, arbitrary: mutatedBody(validBody, operation.body ?? {}).map(({ value, mutation }) => ({ body: { kind: 'json', value } as BodyPlan, mutation })) },
        { weight: 2, arbitrary: rawBody },
        { weight: 1, arbitrary: fc.constant({ body: { kind: 'none' } as BodyPlan, mutation: 'body:missing' }) },
      )
    : fc.oneof(
        { weight: 12, arbitrary: fc.constant({ body: { kind: 'none' } as BodyPlan }) },
        { weight: 1, arbitrary: fc.constant({ body: { kind: 'json', value: { unexpected: true } } as BodyPlan, mutation: 'body:unexpected' }) },
        { weight: 1, arbitrary: rawBody },
      )
  const headers = fc.oneof(
    { weight: 10, arbitrary: fc.constant({ contentType: undefined as string | null | undefined, headers: [] as [string, string][] }) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES, null).map((contentType) => ({ contentType, headers: [] as [string, string][], mutation: 'headers:content-type' })) },
    { weight: 1, arbitrary: fc.subarray(ODD_HEADERS, { minLength: 1, maxLength: 3 }).map((headers) => ({ contentType: undefined, headers, mutation: 'headers:odd' })) },
  )
  return fc
    .record({ scene: fc.nat({ max: Math.max(0, sceneCount - 1) }), params, query: queryArbitrary(operation), auth: authArbitrary, body, headers })
    .map(({ scene, params, query, auth, body, headers }) => {
      const mutations = [query.mutation, body.mutation, 'mutation' in headers ? headers.mutation : undefined]
      if (auth !== 'key') mutations.push(`auth:${auth}`)
      for (const value of Object.values(params)) {
        if ('literal' in value) mutations.push('path:literal')
        else if (value.from !== 'scene') mutations.push(`path:${value.from}`)
      }
      return {
        operation: operation.id,
        method: operation.method,
        template: operation.template,
        scene,
        params,
        query: query.query,
        auth,
        contentType: headers.contentType,
        headers: headers.headers,
        body: body.body,
        mutation: mutations.filter(Boolean).join(' ') || 'valid',
      }
    })
}

/** Methods no route documents, and paths nothing serves: 404 or 405 as problem+json. */
export function strayRequestArbitrary(operations: FuzzOperation[]): fc.Arbitrary<RequestPlan> {
  const templates = [...new Set(operations.map((o) => o.template))]
  return fc.tuple(fc.constantFrom(...templates), fc.constantFrom('PUT', 'OPTIONS', 'PATCH', 'DELETE', 'POST', 'PROPFIND'), fc.constantFrom('', '/', '/extra', '//', '/..', '.json')).map(([template, method, suffix]) => ({
    operation: 'stray',
    method,
    template: template + suffix,
    scene: 0,
    params: Object.fromEntries([...template.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1] as string, { from: 'scene' } as PathValue])),
    query: [],
    auth: 'key' as AuthPlan,
    headers: [],
    body: { kind: 'none' } as BodyPlan,
    mutation: 'stray',
  }))
}

/** Every operation with equal chance, plus a few stray methods and paths. */
export function anyRequestArbitrary(operations: FuzzOperation[], sceneCount: number): fc.Arbitrary<RequestPlan> {
  return fc.oneof(
    { weight: 20, arbitrary: fc.oneof(...operations.map((operation) => requestArbitrary(operation, sceneCount))) },
    { weight: 1, arbitrary: strayRequestArbitrary(operations) },
  )
}
