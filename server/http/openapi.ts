import { Problem, WHOLE_NUMBER_PARAMETER } from './common-model.ts'

interface RouteLike {
  method: string
  path: string
  hooks: Record<string, unknown>
}

interface Detail {
  summary?: string
  description?: string
  tags?: string[]
  hide?: boolean
  /** `[]` marks a public route; absent means the API key is required. */
  security?: unknown[]
}

type JsonSchema = Record<string, unknown>

/** Put on a response schema (`t.String({ [MEDIA_TYPE]: 'text/plain' })`) when it is not JSON. */
export const MEDIA_TYPE = 'x-media-type'

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '400': 'Malformed JSON',
  '401': 'Missing, unknown or revoked API key',
  '404': 'Not found, or not in this workspace',
  '405': 'Method not allowed',
  '409': 'Conflict',
  '413': 'Body too large',
  '415': 'Body is not JSON',
  '422': 'Validation failed',
  '429': 'Rate limited',
  '500': 'Unexpected error',
  '503': 'Unavailable',
}

/** Builds the OpenAPI 3.1 document from the schemas the routes themselves validate with. */
export function openApiDocument(routes: readonly RouteLike[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const detail = (route.hooks.detail ?? {}) as Detail
    if (route.method === 'WS' || route.method === 'ALL' || detail.hide) continue
    const path = openApiPath(route.path)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(route, detail)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley developer API',
      version: info.version,
      description:
        'Chatbots, their integrations (chatapp, rest-api, web, mcp) and flows. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer pk_...`' },
      },
      schemas: { Problem: clean(Problem) },
    },
  }
}

function operation(route: RouteLike, detail: Detail) {
  const { body, query, params, response } = route.hooks as Record<string, JsonSchema | undefined>
  const result: Record<string, unknown> = {
    operationId: operationId(route.method, route.path),
    tags: detail.tags,
    summary: detail.summary,
    description: detail.description,
    parameters: [...parameters(params, 'path'), ...parameters(query, 'query')],
    responses: withNotStored(route.method, responses(response)),
  }
  if (detail.security) result.security = detail.security
  if (body && body.type !== 'void') {
    result.requestBody = { required: true, content: { 'application/json': { schema: clean(body) } } }
  }
  return result
}

function parameters(schema: JsonSchema | undefined, where: 'path' | 'query') {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema?.required ?? []) as string[])
  return Object.entries(properties).map(([name, property]) => {
    const plain = withoutCoercion(property)
    return {
      name,
      in: where,
      required: where === 'path' || (required.has(name) && plain.default === undefined),
      description: plain.description,
      schema: clean(plain),
    }
  })
}

function responses(response: unknown) {
  const byStatus = (response && typeof response === 'object' && !('type' in response) ? response : { 200: response }) as Record<
    string,
    JsonSchema | undefined
  >
  const result: Record<string, unknown> = {}
  for (const [status, schema] of Object.entries(byStatus)) {
    const description = STATUS_TEXT[status] ?? 'Response'
    if (!schema || schema.type === 'void' || status === '204') result[status] = { description }
    else if (schema === (Problem as unknown)) {
      result[status] = {
        description,
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      }
    } else {
      // A route that answers something other than JSON says so on its schema.
      const { [MEDIA_TYPE]: mediaType = 'application/json', ...rest } = schema
      result[status] = { description, content: { [String(mediaType)]: { schema: clean(rest) } } }
    }
  }
  return result
}

/**
 * Elysia widens numeric query parameters into `string | integer`, and strict whole numbers are
 * strings checked by pattern; the document shows the intent.
 */
function withoutCoercion(schema: JsonSchema): JsonSchema {
  const wholeNumber = schema[WHOLE_NUMBER_PARAMETER] as JsonSchema | undefined
  if (wholeNumber) return { description: schema.description, ...wholeNumber }
  const members = schema.anyOf as JsonSchema[] | undefined
  const coerced = members?.find((member) => member.type === 'string' && typeof member.format === 'string')
  if (!members || !coerced || members.length !== 2) return schema
  const { anyOf: _, ...rest } = schema
  return { ...rest, ...members.find((member) => member !== coerced) }
}

/** A JSON copy without TypeBox's symbols and Parley's own `error` wording. */
function clean(schema: unknown): JsonSchema {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'error' && isWording(value) ? undefined : value)))
}

function isWording(value: unknown): boolean {
  if (typeof value === 'string') return true
  return typeof value === 'object' && value !== null && 'message' in value && !('type' in value) && !('anyOf' in value)
}

function openApiPath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return trimmed.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

/** Every write may answer 503 `not_stored` when its commit fails (http/answer-after-commit.ts). */
function withNotStored(method: string, documented: Record<string, unknown>): Record<string, unknown> {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || '503' in documented) return documented
  return {
    ...documented,
    '503': {
      description: 'Not stored: the database could not commit the write; send it again',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    },
  }
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/dev\/v1/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by_${segment.slice(1)}` : segment.replace(/[^A-Za-z0-9]+/g, '_')))
  return [method.toLowerCase(), ...words].join('_')
}
