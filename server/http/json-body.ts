import { describeJsonShapeBreach, type JsonShapeLimits, jsonShapeBreach } from '../support/json-shape.ts'
import { ApiError, badRequest, unprocessable } from './api-error.ts'

export interface BodyLimit {
  /** Tested against the request path; the first match sets the limit. */
  path: RegExp
  bytes: number
  /** Keep the exact bytes for `rawBody` (a route that checks a signature over them). */
  keepRaw?: boolean
  /** Nesting and object members allowed; the default's when omitted. */
  shape?: JsonShapeLimits
  /** Hand the body to the route as its bytes (a Uint8Array), whatever its type: a file upload. */
  raw?: boolean
  /** The refusal past `bytes`, when it must say more than the limit (or carry CORS headers). */
  tooLarge?: (request: Request) => ApiError
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024

/** The size a request says its body has, when it says one: an upload refused by it names the file's size unread. */
export function declaredBodyBytes(request: Request): number | undefined {
  const declared = Number(request.headers.get('content-length') ?? '')
  return Number.isSafeInteger(declared) && declared > 0 ? declared : undefined
}

/**
 * No API body needs more: the deepest legitimate documents (WhatsApp Flow JSON) nest about 20
 * levels, and a chatbot's settings or a webhook batch hold hundreds of members, not tens of
 * thousands. Past these, parsing, validating and explaining a body costs more than any request
 * may hold the serving thread.
 */
export const DEFAULT_JSON_SHAPE: JsonShapeLimits = { maxDepth: 64, maxKeys: 20_000 }

const rawBodies = new WeakMap<Request, Uint8Array>()

/**
 * The exact bytes the parser read for this request, when its path's limit keeps them; a
 * body is read once, so a route that must check a signature over it asks here.
 */
export function rawBody(request: Request): Uint8Array | undefined {
  return rawBodies.get(request)
}

/**
 * The API's one body parser: JSON only (415 otherwise), bounded in bytes (413) and in nesting
 * and members (400, checked before parsing), well-formed (400).
 * An empty body parses as null so that the route's schema explains what was expected.
 * `beforeRead` may refuse a request (by throwing) before a byte of its body is read, so that
 * nobody without an API key can make the server hold megabytes.
 */
export function jsonBodyParser(limits: readonly BodyLimit[] = [], beforeRead: (request: Request, path: string) => void | Promise<void> = () => {}) {
  const limitFor = (path: string): BodyLimit => limits.find((limit) => limit.path.test(path)) ?? { path: /./, bytes: DEFAULT_BODY_LIMIT }

  return async ({ request, contentType }: { request: Request; contentType: string }): Promise<unknown> => {
    const path = new URL(request.url).pathname
    const admitted = beforeRead(request, path)
    if (admitted) await admitted
    const entry = limitFor(path)
    const { bytes: limit, keepRaw, shape = DEFAULT_JSON_SHAPE } = entry
    const refuse = () => entry.tooLarge?.(request) ?? tooLarge(limit)
    const declared = Number(request.headers.get('content-length') ?? 0)
    if (declared > limit) throw refuse()
    const bytes = await request.arrayBuffer()
    if (bytes.byteLength > limit) throw refuse()
    if (entry.raw) return new Uint8Array(bytes)
    if (keepRaw) rawBodies.set(request, new Uint8Array(bytes))
    if (bytes.byteLength === 0) return null
    if (!isJson(contentType)) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `send the body as JSON with Content-Type: application/json (got ${contentType ? `"${contentType}"` : 'no Content-Type'})`,
      )
    }
    const text = new TextDecoder().decode(bytes)
    const breach = jsonShapeBreach(text, shape)
    if (breach) throw badRequest(breach.limit === 'depth' ? 'json_too_deep' : 'json_too_many_members', describeJsonShapeBreach(breach, 'the body'))
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw badRequest('malformed_json', `the body is not valid JSON: ${(error as Error).message}`)
    }
    // Every JSON body of the API is an object. Elysia merges a body into its schema's defaults
    // with Object.assign, which turns a megabyte string or array into an object of a million
    // index keys (29 s of one thread for a 1.1 MB string): refused here, before it gets there.
    if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) throw notAnObject()
    return parsed
  }
}

function notAnObject(): ApiError {
  return unprocessable('validation_failed', 'the request body is invalid: the body must be a JSON object', [{ path: '', message: 'the body must be a JSON object' }])
}

function isJson(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? ''
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'))
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `the body is larger than the limit of ${limit} bytes`)
}

/** A `raw: true` route's parsed body: its bytes, or none when the request had no body. */
export function fileBytes(body: unknown): Uint8Array {
  return body instanceof Uint8Array ? body : new Uint8Array()
}
