import { randomBytes } from 'node:crypto'

/**
 * A stand-in for the provider's cloud (the WhatsApp Cloud API on the Graph API) on a free
 * port of 127.0.0.1: `POST /{version}/{phone_number_id}/messages` with a bearer token,
 * checked against the provider's rules for each message type (types, required fields,
 * lengths, counts), answered in the provider's wire format: a `wamid` for an accepted
 * message, a Graph API error object otherwise.
 */

/** One request as the fake provider saw it. */
export interface GraphRequest {
  path: string
  phoneNumberId: string
  headers: Record<string, string>
  json: any
  /** What it answered. */
  status: number
  answer: any
}

/** A scripted answer for the next request: an HTTP status with the provider's usual error for it, a Graph error, or no answer. */
export type GraphStep = number | 'hang' | { status: number; code: number; message: string; details?: string; retryAfter?: string }

export const GRAPH_ERRORS = {
  reEngagement: { status: 400, code: 131047, message: 'Re-engagement message', details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
  rateLimit: { status: 400, code: 130429, message: 'Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  serverError: { status: 500, code: 131000, message: 'Something went wrong', details: 'Something went wrong. Please try again later.' },
  badToken: { status: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token' },
} as const

const EMOJI = /\p{Extended_Pictographic}/u

export function fakeGraphApi(version = 'v21.0') {
  const tokens = new Map<string, string>()
  const flows = new Set<string>()
  const received: GraphRequest[] = []
  const script: GraphStep[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const hanging = new Set<() => void>()
  let answerAfterMs = 0

  const media = new Map<string, { bytes: Uint8Array; mimeType: string; token: string }>()
  const downloads: MediaDownload[] = []
  /** The media lookups and downloads Parley made (apart from `received`, the messages it sent). */
  const mediaRequests: GraphRequest[] = []
  let fetchLinks = false
  /** Media requests answered so far at once, at most; and the hold that makes them overlap. */
  let mediaInFlight = 0
  let peakMediaInFlight = 0
  let holdMediaUntil = 0
  const heldMedia: (() => void)[] = []
  let heldTimer: ReturnType<typeof setTimeout> | undefined
  /** The media file that never answers (until its own timer, which sets `hangFired`). */
  /** Media still described, whose download url answers 404 (expired, or lost by the provider). */
  const lostFiles = new Set<string>()
  let hangFile: { id: string; afterMs: number; fired: boolean; started: boolean } | null = null

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      if (request.method === 'GET') {
        mediaInFlight++
        peakMediaInFlight = Math.max(peakMediaInFlight, mediaInFlight)
        try {
          if (holdMediaUntil > 0) await held()
          if (hangFile && url.pathname === `/media-files/${hangFile.id}`) await hang(hangFile, request.signal)
          return serveMedia(request, url)
        } finally {
          mediaInFlight--
        }
      }
      const text = await request.text()
      let json: any
      try {
        json = JSON.parse(text)
      } catch {}
      const match = new RegExp(`^/${version.replace('.', '\\.')}/([^/]+)/messages$`).exec(url.pathname)
      const record: GraphRequest = { path: url.pathname, phoneNumberId: match?.[1] ?? '', headers: Object.fromEntries(request.headers), json, status: 0, answer: null }
      received.push(record)
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      if (answerAfterMs > 0) await Bun.sleep(answerAfterMs)
      const step = script.shift()
      if (step === 'hang') {
        return new Promise<Response>((resolve) => {
          const release = () => resolve(new Response('too late', { status: 200 }))
          hanging.add(release)
          request.signal.addEventListener('abort', release)
        })
      }
      const [status, answer, headers] = step !== undefined ? scripted(step) : judge(request, match?.[1], json)
      record.status = status
      record.answer = answer
      // As the provider does with a media message's link: it downloads the file to send it on.
      const link = json?.[json?.type]?.link
      if (fetchLinks && status === 200 && typeof link === 'string') downloads.push(await download(link))
      return Response.json(answer, { status, headers })
    },
  })

  /** Held until `holdMediaUntil` requests are held at once (or none came for 500 ms), then let go last first. */
  function held(): Promise<void> {
    return new Promise((resolve) => {
      heldMedia.push(resolve)
      clearTimeout(heldTimer)
      if (heldMedia.length >= holdMediaUntil) letGo()
      else heldTimer = setTimeout(letGo, 500)
    })
  }
  function letGo() {
    clearTimeout(heldTimer)
    const all = heldMedia.splice(0).reverse()
    all.forEach((resolve, index) => setTimeout(resolve, index * 10))
  }

  function hang(file: { afterMs: number; fired: boolean; started: boolean }, signal: AbortSignal): Promise<void> {
    file.started = true
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        file.fired = true
        resolve()
      }, file.afterMs)
      hanging.add(() => (clearTimeout(timer), resolve()))
      signal.addEventListener('abort', () => resolve())
    })
  }

  function judge(request: Request, phoneNumberId: string | undefined, json: any): [number, unknown, Record<string, string>?] {
    if (request.method !== 'POST' || phoneNumberId === undefined) return graphError(400, 100, 'Unsupported post request.', 'The path is not a messages endpoint.')
    const token = tokens.get(phoneNumberId)
    if (token === undefined) {
      return graphError(400, 100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`)
    }
    if (request.headers.get('authorization') !== `Bearer ${token}`) return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token')
    if (!request.headers.get('content-type')?.startsWith('application/json')) return graphError(400, 100, 'Invalid parameter', 'The body must be JSON.')
    const problem = checkMessage(json, flows)
    if (problem) return graphError(400, problem.code, problem.code === 100 ? 'Invalid parameter' : 'Parameter value is not valid', problem.details)
    const wamid = `wamid.${randomBytes(24).toString('base64url')}`
    return [200, { messaging_product: 'whatsapp', contacts: [{ input: json.to, wa_id: String(json.to).replace(/^\+/, '') }], messages: [{ id: wamid }] }]
  }

  /**
   * `GET /{version}/{media-id}`: the media's description (a short-lived download url, its
   * type, sha256 and size), for the token of the business number it was sent to; then
   * `GET /media-files/{media-id}` with the same token: its bytes.
   */
  function serveMedia(request: Request, url: URL): Response {
    const step = script.shift()
    if (step !== undefined && step !== 'hang') {
      const [status, answer, headers] = scripted(step)
      return Response.json(answer, { status, headers })
    }
    const described = new RegExp(`^/${version.replace('.', '\\.')}/([^/]+)$`).exec(url.pathname)
    const file = /^\/media-files\/([^/]+)$/.exec(url.pathname)
    const id = described?.[1] ?? file?.[1] ?? ''
    const found = media.get(id)
    const record: GraphRequest = { path: url.pathname, phoneNumberId: '', headers: Object.fromEntries(request.headers), json: null, status: 0, answer: null }
    mediaRequests.push(record)
    const answer = (status: number, body: unknown, headers?: Record<string, string>) => {
      record.status = status
      record.answer = body
      return body instanceof Uint8Array ? new Response(body as Uint8Array<ArrayBuffer>, { status, headers }) : Response.json(body, { status, headers })
    }
    if (!found) {
      const [status, body] = graphError(400, 100, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`)
      return answer(status, body)
    }
    if (request.headers.get('authorization') !== `Bearer ${found.token}`) {
      const [status, body] = graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token')
      return answer(status, body)
    }
    if (file && lostFiles.has(id)) return answer(404, { error: { message: 'Not found', code: 404 } })
    if (file) return answer(200, found.bytes, { 'content-type': found.mimeType })
    const sha256 = new Bun.CryptoHasher('sha256').update(found.bytes).digest('hex')
    return answer(200, { messaging_product: 'whatsapp', url: `${url.origin}/media-files/${id}`, mime_type: found.mimeType, sha256, file_size: found.bytes.byteLength, id })
  }

  return {
    /** The base to set as PARLEY_CHATAPP_API_URL. */
    url: `http://127.0.0.1:${server.port}/${version}`,
    received,
    /** The bodies of the messages it accepted, in order. */
    accepted: () => received.filter((r) => r.status === 200).map((r) => r.json),
    /** The wamid it gave the nth accepted message. */
    wamidOf: (index: number) => received.filter((r) => r.status === 200)[index]?.answer.messages[0].id as string,
    /** A business number the fake knows, with the only token that may send from it. */
    register(phoneNumberId: string, token: string) {
      tokens.set(phoneNumberId, token)
    },
    /** A flow registered (and published) with the provider under this name. */
    registerFlow(name: string) {
      flows.add(name)
    },
    /** Answers each request only after `ms` (0: at once), as a slow provider would; the request is recorded on arrival. */
    answerAfter(ms: number) {
      answerAfterMs = ms
    },
    /** A file a user sent the business number: its media id, as the webhook names it. */
    addMedia(phoneNumberId: string, bytes: Uint8Array, mimeType: string): string {
      const token = tokens.get(phoneNumberId)
      if (token === undefined) throw new Error(`register ${phoneNumberId} first`)
      const id = String(1_000_000_000_000_000 + media.size + Math.floor(Math.random() * 1_000_000))
      media.set(id, { bytes, mimeType, token })
      return id
    },
    /** From now on, each accepted media message's link is downloaded, as the provider does; what came back. */
    fetchMediaLinks() {
      fetchLinks = true
    },
    downloads,
    mediaRequests,
    /** The most media requests (descriptions and files) it was answering at once. */
    peakMediaInFlight: () => peakMediaInFlight,
    /** Media requests wait until `count` wait at once (so that concurrent ones overlap), then are answered last first. */
    holdMediaUntil(count: number) {
      holdMediaUntil = count
    },
    /** The file of `mediaId` answers only after `afterMs`; `hangFired()` tells whether that time came. */
    hangMediaFile(mediaId: string, afterMs: number) {
      hangFile = { id: mediaId, afterMs, fired: false, started: false }
    },
    /** The hanging file answers at once from now on (the provider is well again). */
    stopHanging() {
      if (hangFile) hangFile = { ...hangFile, afterMs: 0 }
    },
    hangStarted: () => hangFile?.started ?? false,
    hangFired: () => hangFile?.fired ?? false,
    /** The media stays described, but its download url answers 404. */
    loseFile(mediaId: string) {
      lostFiles.add(mediaId)
    },
    respond(...steps: GraphStep[]) {
      script.push(...steps)
    },
    waitFor(count: number, guardMs = 5_000): Promise<void> {
      if (received.length >= count) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error(`the fake provider got ${received.length} requests, expected ${count}`)), guardMs)
        waiters.push({ count, resolve: () => (clearTimeout(guard), resolve()) })
      })
    },
    stop() {
      for (const release of hanging) release()
      server.stop(true)
    },
  }
}

export type FakeGraphApi = ReturnType<typeof fakeGraphApi>

/** A media message's link as the fake provider downloaded it. */
export interface MediaDownload {
  link: string
  status: number
  contentType: string | null
  bytes: Uint8Array
}

async function download(link: string): Promise<MediaDownload> {
  try {
    const response = await fetch(link, { redirect: 'manual' })
    return { link, status: response.status, contentType: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) }
  } catch (error) {
    return { link, status: 0, contentType: String(error), bytes: new Uint8Array() }
  }
}

function scripted(step: Exclude<GraphStep, 'hang'>): [number, unknown, Record<string, string>?] {
  if (typeof step === 'number') {
    if (step === 429) return graphError(429, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.')
    if (step >= 500) return graphError(step, 131000, 'Something went wrong', 'Something went wrong. Please try again later.')
    return graphError(step, 100, 'Invalid parameter')
  }
  const [status, body] = graphError(step.status, step.code, step.message, step.details)
  return [status, body, step.retryAfter ? { 'retry-after': step.retryAfter } : undefined]
}

function graphError(status: number, code: number, message: string, details?: string): [number, unknown] {
  const error: Record<string, unknown> = { message: `(#${code}) ${message}`, type: 'OAuthException', code, fbtrace_id: randomBytes(9).toString('base64url') }
  if (details) error.error_data = { messaging_product: 'whatsapp', details }
  return [status, { error }]
}

type Problem = { code: number; details: string }
const invalid = (details: string): Problem => ({ code: 131009, details })
const unknownKey = (where: string, key: string): Problem => ({ code: 100, details: `Param ${where}['${key}'] is not a valid parameter.` })

/** The provider's rules for the message types Parley sends; the first broken rule, or null. */
export function checkMessage(message: any, flows: Set<string>): Problem | null {
  if (!isObject(message)) return { code: 100, details: 'The request body must be a JSON object.' }
  if (message.messaging_product !== 'whatsapp') return { code: 100, details: 'The parameter messaging_product is required and must be "whatsapp".' }
  if (message.recipient_type !== undefined && message.recipient_type !== 'individual') return invalid('recipient_type must be individual.')
  if (typeof message.to !== 'string' || !/^\+?\d{6,15}$/.test(message.to)) return invalid('to must be a phone number.')
  const allowed = new Set(['messaging_product', 'recipient_type', 'to', 'type', 'context', message.type])
  for (const key of Object.keys(message)) if (!allowed.has(key)) return unknownKey('message', key)
  const content = message[message.type]
  if (!isObject(content)) return { code: 100, details: `The parameter ${message.type} is required.` }
  switch (message.type) {
    case 'text':
      return keys('text', content, ['body', 'preview_url']) ?? text('text.body', content.body, 4096) ?? (content.preview_url !== undefined && typeof content.preview_url !== 'boolean' ? invalid('text.preview_url must be a boolean.') : null)
    case 'image':
    case 'video':
      return keys(message.type, content, ['link', 'caption']) ?? link(message.type, content.link) ?? optionalText(`${message.type}.caption`, content.caption, 1024)
    case 'audio':
      return keys('audio', content, ['link']) ?? link('audio', content.link)
    case 'document':
      return keys('document', content, ['link', 'caption', 'filename']) ?? link('document', content.link) ?? optionalText('document.caption', content.caption, 1024) ?? optionalText('document.filename', content.filename, 240)
    case 'interactive':
      return checkInteractive(content, flows)
    default:
      return invalid(`Message type ${String(message.type)} is not supported here.`)
  }
}

function checkInteractive(interactive: any, flows: Set<string>): Problem | null {
  const action = interactive.action
  if (!isObject(action)) return { code: 100, details: 'The parameter interactive.action is required.' }
  switch (interactive.type) {
    case 'button': {
      const problem = keys('interactive', interactive, ['type', 'body', 'action']) ?? text('interactive.body.text', interactive.body?.text, 1024)
      if (problem) return problem
      const buttons = action.buttons
      if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return invalid('interactive.action.buttons must have 1 to 3 buttons.')
      for (const button of buttons) {
        if (button?.type !== 'reply' || !isObject(button.reply)) return invalid('Each button must be {type: "reply", reply: {id, title}}.')
        const bad = text('button id', button.reply.id, 256) ?? text('button title', button.reply.title, 20)
        if (bad) return bad
      }
      if (new Set(buttons.map((b: any) => b.reply.title)).size !== buttons.length) return invalid('Button titles must be unique.')
      if (new Set(buttons.map((b: any) => b.reply.id)).size !== buttons.length) return invalid('Button ids must be unique.')
      return null
    }
    case 'list': {
      const problem = keys('interactive', interactive, ['type', 'body', 'action']) ?? text('interactive.body.text', interactive.body?.text, 4096) ?? text('interactive.action.button', action.button, 20)
      if (problem) return problem
      const sections = action.sections
      if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10) return invalid('interactive.action.sections must have 1 to 10 sections.')
      const rows = sections.flatMap((section: any) => (Array.isArray(section?.rows) ? section.rows : []))
      if (rows.length < 1 || rows.length > 10) return invalid('A list must have 1 to 10 rows in all.')
      for (const section of sections) {
        if (sections.length > 1 && section.title === undefined) return invalid('Each section needs a title when there is more than one.')
        const bad = optionalText('section title', section.title, 24)
        if (bad) return bad
      }
      for (const row of rows) {
        const bad = keys('row', row, ['id', 'title', 'description']) ?? text('row id', row.id, 200) ?? text('row title', row.title, 24) ?? optionalText('row description', row.description, 72)
        if (bad) return bad
      }
      if (new Set(rows.map((row: any) => row.id)).size !== rows.length) return invalid('Row ids must be unique.')
      return null
    }
    case 'flow': {
      const problem = keys('interactive', interactive, ['type', 'header', 'body', 'footer', 'action']) ?? text('interactive.body.text', interactive.body?.text, 1024)
      if (problem) return problem
      const p = action.parameters
      if (action.name !== 'flow' || !isObject(p)) return invalid('interactive.action must be {name: "flow", parameters}.')
      if (p.flow_message_version !== '3') return invalid('flow_message_version must be "3".')
      const cta = text('flow_cta', p.flow_cta, 20)
      if (cta) return cta
      if (EMOJI.test(p.flow_cta)) return invalid('flow_cta must not contain emoji.')
      if (typeof p.flow_id !== 'string' && typeof p.flow_name !== 'string') return { code: 131008, details: 'flow_id or flow_name is required.' }
      if (typeof p.flow_name === 'string' && !flows.has(p.flow_name)) return invalid(`Flow with name ${p.flow_name} does not exist.`)
      if (p.flow_action === 'navigate' && typeof p.flow_action_payload?.screen !== 'string') return invalid('flow_action_payload.screen is required for navigate.')
      if (p.flow_action_payload?.data !== undefined && (!isObject(p.flow_action_payload.data) || Object.keys(p.flow_action_payload.data).length === 0)) {
        return invalid('flow_action_payload.data must be a non-empty object.')
      }
      return null
    }
    default:
      return invalid(`Interactive type ${String(interactive.type)} is not supported here.`)
  }
}

function keys(where: string, value: any, allowed: string[]): Problem | null {
  if (!isObject(value)) return invalid(`${where} must be an object.`)
  for (const key of Object.keys(value)) if (!allowed.includes(key)) return unknownKey(where, key)
  return null
}

function text(what: string, value: unknown, max: number): Problem | null {
  if (typeof value !== 'string' || value.trim() === '') return invalid(`${what} is required and must not be empty.`)
  return value.length > max ? invalid(`${what} is too long: at most ${max} characters.`) : null
}

const optionalText = (what: string, value: unknown, max: number) => (value === undefined ? null : text(what, value, max))

function link(what: string, value: unknown): Problem | null {
  return typeof value === 'string' && /^https?:\/\//.test(value) ? null : invalid(`${what}.link must be an http(s) URL.`)
}

const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value)
