import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningParley, runParley } from '../../support/run-parley.ts'
import type { BodyPlan, RequestPlan } from './openapi-arbitraries.ts'

/**
 * The fuzz harness around one compiled Parley: starts it on a scratch data directory, makes
 * fixtures through its API (two workspaces, chatbots with flows, integrations and a
 * conversation), sends planned requests one at a time and checks the invariants of every answer.
 */

export const INVARIANTS = ['no-5xx', 'problem-json', 'no-internals', 'nothing-stored-on-refusal', 'healthz', 'tenant-isolation'] as const
export type Invariant = (typeof INVARIANTS)[number]

export interface Scene {
  chatbot_id: string
  flow_id: string
  meta_flow_id: string
  web_integration_id: string
  rest_integration_id: string
  chatapp_integration_id: string
  widget_key: string
  phone_number_id: string
  verify_token: string
  conversation_id: string
  contact_id: string
  user_id: string
  label_id: string
  source_id: string
}

export interface SentRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
  /** The body as a short expression when it is long (`'['.repeat(100000)`). */
  bodyDescription?: string
}

export interface Violation {
  invariant: Invariant
  index: number
  status: number
  mutation: string
  detail: string
  request: string
}

export interface FuzzReport {
  sent: number
  byStatus: Map<number, number>
  byRoute: Map<string, Map<number, number>>
  byMutation: Map<string, Map<number, number>>
  violations: Violation[]
  /** The slowest /healthz probe, in ms (measured, reported; never asserted tightly). */
  worstHealthzMs: number
  /** The request the slowest probe followed. */
  worstHealthzAfter: string
}

export interface FuzzParley {
  server: RunningParley
  url: string
  dataDir: string
  key: string
  foreignKey: string
  scenes: Scene[]
  foreign: Scene
  /** A chatbot with nothing in it, where creating an integration succeeds; replaced once it has one. */
  bare: string
  sinkUrl: string
  stop: () => Promise<void>
}

const API = '/api/dev/v1'
/** Syntactically a ULID, belonging to nothing. */
export const UNKNOWN_ID = '01ARZ3NDEKTSV4RRFFQ69G5FAV'

/** A compiled Parley on a scratch directory with fixtures made through its API; outbound calls go to a local sink. */
export async function startFuzzParley(binary: string, sceneCount = 3): Promise<FuzzParley> {
  const sink = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ messages: [{ id: 'wamid.sink' }] }) })
  const sinkUrl = `http://127.0.0.1:${sink.port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-fuzz-'))
  const env = {
    PARLEY_DATA_DIR: dataDir,
    PARLEY_RATE_LIMIT: '0',
    PARLEY_PUBLIC_RATE_LIMIT: '0',
    // Every fuzzed request comes from one address, and many carry a wrong key on purpose: the
    // throttle would answer all the rest 429 (it has tests of its own).
    PARLEY_AUTH_FAILURE_LIMIT: '0',
    PARLEY_OUTBOUND_ALLOW: '127.0.0.1',
    PARLEY_CHATAPP_API_URL: `${sinkUrl}/graph`,
  }
  const server = await runParley([binary], env)
  const key = /\b(pk_[0-9A-Za-z]{40})\b/.exec(server.output())?.[1]
  if (!key) throw new Error(`no first key in: ${server.output()}`)
  const created = Bun.spawnSync([binary, 'keys', 'create', '--name', 'foreign', '--new-workspace'], { env: { ...process.env, ...env } })
  const foreignKey = created.stdout.toString().trim()
  if (!foreignKey.startsWith('pk_')) throw new Error(`foreign key not created: ${created.stderr}`)
  const parley = { server, url: server.url, dataDir, key, foreignKey, sinkUrl, scenes: [] as Scene[] }
  const scenes: Scene[] = []
  for (let i = 0; i < sceneCount; i++) scenes.push(await createScene(parley, key, `s${i}`))
  const foreign = await createScene(parley, foreignKey, 'foreign')
  const bare = await createBareChatbot(parley, key)
  return {
    ...parley,
    scenes,
    foreign,
    bare,
    async stop() {
      await server.stop('SIGKILL')
      sink.stop(true)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A chatbot with a published conversation flow as its entry, a meta flow, all three integrations and a conversation. */
export async function createScene(parley: { url: string; sinkUrl: string }, key: string, tag: string): Promise<Scene> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${parley.url}${API}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await response.json()) as Record<string, unknown>
    if (response.status >= 300) throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }
  const chatbot = (await call('POST', '/chatbots', { name: `Fuzz ${tag}` })).id as string
  const flow = { version: 1, start: 'hello', states: { hello: { say: [{ text: 'Hello!' }], on: [{ to: 'hello' }] } } }
  const flowId = (await call('POST', `/chatbots/${chatbot}/flows`, { name: 'main', type: 'conversation', flow })).id as string
  await call('POST', `/chatbots/${chatbot}/flows/${flowId}/publish`)
  await call('PATCH', `/chatbots/${chatbot}`, { entry_flow_id: flowId })
  const metaFlowId = (await call('POST', `/chatbots/${chatbot}/flows`, { name: 'form', type: 'meta' })).id as string
  const web = await call('POST', `/chatbots/${chatbot}/integrations/web`, { name: 'web' })
  const rest = await call('POST', `/chatbots/${chatbot}/integrations/rest-api`, { webhook_url: `${parley.sinkUrl}/hook/${tag}` })
  const phoneNumberId = `${Bun.hash(tag + chatbot)}`.slice(0, 15)
  const verifyToken = `verify-${tag}`
  const chatapp = await call('POST', `/chatbots/${chatbot}/integrations/chatapp`, { phone_number_id: phoneNumberId, access_token: 'token', verify_token: verifyToken })
  const userId = `user-${tag}`
  const message = await call('POST', `/chatbots/${chatbot}/integrations/rest-api/messages`, { user_id: userId, text: 'hi' })
  const label = await call('POST', '/labels', { name: `Fuzz ${tag}` })
  await call('PUT', `/chatbots/${chatbot}/business-hours`, { timezone: 'Europe/Berlin', weekly: { mon: [{ from: '09:00', until: '17:00' }] } })
  const source = await call('POST', `/chatbots/${chatbot}/knowledge/sources`, { type: 'text', title: 'Fuzz', text: 'We are open from nine to five.' })
  // Carried by the scene's conversation and contact, so that taking it off can succeed.
  await call('PUT', `/desk/conversations/${message.conversation_id}/labels/${label.id}`)
  await call('PUT', `/desk/contacts/${(message.contact as { id: string }).id}/labels/${label.id}`)
  return {
    chatbot_id: chatbot,
    flow_id: flowId,
    meta_flow_id: metaFlowId,
    web_integration_id: web.id as string,
    rest_integration_id: rest.id as string,
    chatapp_integration_id: chatapp.id as string,
    widget_key: (web.config as { widget_key: string }).widget_key,
    phone_number_id: phoneNumberId,
    verify_token: verifyToken,
    conversation_id: message.conversation_id as string,
    contact_id: (message.contact as { id: string }).id,
    user_id: userId,
    label_id: label.id as string,
    source_id: source.id as string,
  }
}

export async function createBareChatbot(parley: { url: string }, key: string): Promise<string> {
  const response = await fetch(`${parley.url}${API}/chatbots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fuzz bare' }),
  })
  if (response.status !== 201) throw new Error(`bare chatbot not created: ${await response.text()}`)
  return ((await response.json()) as { id: string }).id
}

/** Creating an integration needs a chatbot without one: a third of those requests go to the bare chatbot. */
function usesBareChatbot(plan: RequestPlan): boolean {
  return plan.method === 'POST' && /\/integrations\/(web|rest-api|chatapp)$/.test(plan.template) && plan.scene % 3 === 0
}

/** Fills a plan's named ids in from the fixtures and builds the exact request. */
export function resolveRequest(plan: RequestPlan, parley: FuzzParley): SentRequest {
  const scene = parley.scenes[plan.scene % parley.scenes.length] as Scene
  const fill = (text: string) =>
    text.replace(/@@(foreign\.)?([a-z_]+)@@/g, (_, foreign: string | undefined, name: string) => {
      if (name === 'unknown') return UNKNOWN_ID
      if (name === 'webhook_url') return `${parley.sinkUrl}/hook/fuzz`
      const from = foreign ? parley.foreign : scene
      return (from as unknown as Record<string, string>)[name] ?? name
    })
  const path = plan.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = plan.params[name] ?? { from: 'scene' }
    if ('literal' in value) return value.literal
    if (value.from === 'unknown') return name === 'widget_key' ? 'wk_000000000000000000000000' : UNKNOWN_ID
    if (value.from === 'scene' && name === 'chatbot_id' && usesBareChatbot(plan)) return parley.bare
    const from = value.from === 'foreign' ? parley.foreign : scene
    return idFor(from, name, plan)
  })
  const query = plan.query.map(([name, value]) => `${encodeLoosely(name)}=${encodeLoosely(fill(value))}`).join('&')
  const headers: Record<string, string> = {}
  const key = { key: parley.key, 'foreign-key': parley.foreignKey, 'unknown-key': `pk_${'A'.repeat(40)}`, none: '', malformed: '' }[plan.auth]
  if (key) headers.authorization = `Bearer ${key}`
  if (plan.auth === 'malformed') headers.authorization = `Basic ${btoa('user:pass')}`
  const { body, description } = bodyBytes(plan.body, fill)
  if (body !== undefined && plan.contentType === undefined) headers['content-type'] = 'application/json'
  if (typeof plan.contentType === 'string') headers['content-type'] = plan.contentType
  for (const [name, value] of plan.headers) headers[name] = value
  return { method: plan.method, path: query ? `${path}?${query}` : path, headers, body, bodyDescription: description }
}

/** encodeURIComponent, except that a lone surrogate is sent as the (invalid) UTF-8 bytes it would have: a hostile input of its own. */
function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return [...text]
      .map((char) => {
        const unit = char.charCodeAt(0)
        if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
          return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
        }
        return encodeURIComponent(char)
      })
      .join('')
  }
}

function idFor(scene: Scene, name: string, plan: RequestPlan): string {
  if (name === 'integration_id') {
    if (plan.template.startsWith('/hooks/chatapp')) return scene.chatapp_integration_id
    return [scene.web_integration_id, scene.rest_integration_id, scene.chatapp_integration_id][plan.scene % 3] as string
  }
  if (name === 'flow_id' && plan.scene % 4 === 3) return scene.meta_flow_id
  // The widget's texts: one file per language the catalogue has.
  if (name === 'file') return ['es.json', 'ar.json', 'ja.json'][plan.scene % 3] as string
  return (scene as unknown as Record<string, string>)[name] ?? name
}

function bodyBytes(plan: BodyPlan, fill: (text: string) => string): { body?: string; description?: string } {
  switch (plan.kind) {
    case 'none':
      return {}
    case 'text':
      return { body: plan.text }
    case 'json': {
      const text = fill(JSON.stringify(plan.value) ?? 'null')
      return { body: text, description: text.length > 400 ? `${JSON.stringify(text.slice(0, 200))}… (${text.length} bytes of JSON)` : undefined }
    }
    case 'repeat': {
      const body = plan.open.repeat(plan.count) + plan.middle + plan.close.repeat(plan.count)
      const middle = plan.middle.length > 20 ? `'${plan.middle[0]}'.repeat(${plan.middle.length})` : JSON.stringify(plan.middle)
      return { body, description: `${JSON.stringify(plan.open)}.repeat(${plan.count}) + ${middle} + ${JSON.stringify(plan.close)}.repeat(${plan.count})` }
    }
  }
}

/** A request as a line someone can replay: method, URL, headers and body (long parts as expressions). */
export function describeRequest(request: SentRequest): string {
  const path = request.path.length > 300 ? `${request.path.slice(0, 120)}… (${request.path.length} characters)` : request.path
  const headers = Object.entries(request.headers)
    .map(([name, value]) => (name === 'authorization' ? `${name}: ${value.slice(0, 14)}…` : `${name}: ${value.length > 80 ? `${value.slice(0, 40)}… (${value.length})` : value}`))
    .join(' | ')
  const body = request.bodyDescription ?? (request.body === undefined ? '' : JSON.stringify(request.body.length > 400 ? `${request.body.slice(0, 200)}…` : request.body))
  return `${request.method} ${path}${headers ? ` [${headers}]` : ''}${body ? ` body ${body}` : ''}`
}

// ---------------------------------------------------------------------------------------------
// The database, read from the side

/**
 * What a refused request must leave untouched: every user table. The outbox's delivery
 * bookkeeping (attempts, times, status) changes on its own as the worker delivers, so only
 * which deliveries exist and what they carry counts; schema_migrations never changes.
 */
const WATCHED: Record<string, string> = {
  workspaces: '*',
  api_keys: '*',
  chatbots: '*',
  integrations: '*',
  flows: '*',
  flow_versions: '*',
  contacts: '*',
  conversations: '*',
  messages: '*',
  instance_settings: '*',
  outbox: 'id, chatbot_id, integration_id, ordering_key, event_type, body, kind',
  chatapp_sends: '*',
  chatapp_inbound: '*',
  chatapp_statuses: '*',
}

export class DatabaseWatch {
  private readonly db: Database
  private readonly version
  private readonly tables: [string, ReturnType<Database['query']>][]

  constructor(file: string) {
    this.db = new Database(file, { readonly: true })
    this.version = this.db.query<{ data_version: number }, []>('PRAGMA data_version')
    const present = new Set(this.db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name))
    this.tables = Object.entries(WATCHED)
      .filter(([table]) => present.has(table))
      .map(([table, columns]) => [table, this.db.query(`SELECT ${columns} FROM ${table} ORDER BY rowid`)])
  }

  /** Changes whenever another connection commits: a cheap "did anything happen". */
  dataVersion(): number {
    return this.version.get()?.data_version ?? 0
  }

  /** A digest per table of the watched content. */
  digest(): Map<string, bigint | number> {
    const digests = new Map<string, bigint | number>()
    for (const [table, query] of this.tables) digests.set(table, Bun.hash(JSON.stringify(query.values())))
    return digests
  }

  /** Waits until nobody has committed for a while (the group-commit batcher, a bot's answer, the outbox worker). */
  async settle(quietMs = 30, capMs = 1000): Promise<void> {
    const started = performance.now()
    let last = this.dataVersion()
    let quietSince = performance.now()
    while (performance.now() - started < capMs) {
      await Bun.sleep(5)
      const now = this.dataVersion()
      if (now !== last) {
        last = now
        quietSince = performance.now()
      } else if (performance.now() - quietSince >= quietMs) return
    }
  }

  close(): void {
    this.db.close()
  }
}

export function changedTables(before: Map<string, bigint | number>, after: Map<string, bigint | number>): string[] {
  return [...after.keys()].filter((table) => before.get(table) !== after.get(table))
}

// ---------------------------------------------------------------------------------------------
// Running

export interface RunOptions {
  /** Probe /healthz after every this many requests (and after any request that got no answer). */
  healthzEvery?: number
  onProgress?: (done: number) => void
}

/** Sends the plans one at a time and checks each answer; one request in flight, so the database diff is this request's. */
export async function runFuzz(parley: FuzzParley, plans: RequestPlan[], options: RunOptions = {}): Promise<FuzzReport> {
  const healthzEvery = options.healthzEvery ?? 5
  const watch = new DatabaseWatch(join(parley.dataDir, 'parley.db'))
  const report: FuzzReport = { sent: 0, byStatus: new Map(), byRoute: new Map(), byMutation: new Map(), violations: [], worstHealthzMs: 0, worstHealthzAfter: '' }
  let digest = watch.digest()
  let digestVersion = watch.dataVersion()
  let previous = 'none'
  try {
    for (const [index, plan] of plans.entries()) {
      const request = resolveRequest(plan, parley)
      const violate = (invariant: Invariant, status: number, detail: string) =>
        report.violations.push({ invariant, index, status, mutation: plan.mutation, detail, request: describeRequest(request) })
      if (watch.dataVersion() !== digestVersion) {
        digestVersion = watch.dataVersion()
        digest = watch.digest()
      }
      const answer = await send(parley.url, request)
      report.sent++
      count(report.byStatus, answer.status)
      count(mapFor(report.byRoute, `${plan.method} ${plan.template}`), answer.status)
      for (const part of plan.mutation.split(' ')) count(mapFor(report.byMutation, part.split(':')[0] === 'valid' ? 'valid' : part), answer.status)

      if (answer.status === 0) violate('no-5xx', 0, `no answer: ${answer.error}`)
      else if (answer.status >= 500) violate('no-5xx', answer.status, answer.text.slice(0, 300))
      if (answer.status >= 400 && plan.method !== 'HEAD') {
        const problem = problemShape(answer)
        if (problem) violate('problem-json', answer.status, problem)
        const leak = internalsIn(answer.text)
        if (leak) violate('no-internals', answer.status, leak)
      }
      if (answer.status >= 200 && answer.status < 300 && crossesWorkspaces(plan)) violate('tenant-isolation', answer.status, `another workspace's id answered ${answer.status}`)

      const refused = answer.status >= 400 || answer.status === 0
      const wrote = !refused && plan.method !== 'GET' && plan.method !== 'HEAD'
      // The probe is also a barrier: the server commits a turn's writes just after answering
      // (group commit), so once it has answered a later request, what this one wrote is on disk.
      let down = false
      const probe = async () => {
        const answered = await healthz(parley.url)
        if (answered.ms > report.worstHealthzMs) {
          report.worstHealthzMs = answered.ms
          report.worstHealthzAfter = `#${index} ${answer.status} ${describeRequest(request)}`
        }
        if (answered.status !== 200) violate('healthz', answered.status, `/healthz answered ${answered.status} after this request`)
        down ||= answered.status === 0
      }
      if (refused || wrote || index % healthzEvery === healthzEvery - 1) await probe()
      if (down) break // nothing more to learn from a server that no longer answers
      if (refused) {
        if (watch.dataVersion() !== digestVersion) {
          const after = watch.digest()
          const changed = changedTables(digest, after)
          if (changed.length > 0) violate('nothing-stored-on-refusal', answer.status, `changed: ${changed.join(', ')} (the request before: ${previous})`)
          digest = after
          digestVersion = watch.dataVersion()
        }
      } else if (wrote) {
        // What the commit sets off (deliveries, the bot's next step) commits in later turns.
        await watch.settle()
        await probe()
        if (plan.method === 'DELETE') await replaceDeletedFixtures(parley)
        if (usesBareChatbot(plan) && request.path.includes(parley.bare)) parley.bare = await createBareChatbot(parley, parley.key)
      }

      previous = `#${index} ${answer.status} ${plan.method} ${plan.template}`
      options.onProgress?.(index + 1)
    }
  } finally {
    watch.close()
  }
  return report
}

/** Another workspace's ids in the path of an authenticated route, or the other workspace's key on ours. */
function crossesWorkspaces(plan: RequestPlan): boolean {
  if (plan.template.startsWith('/hooks/') || plan.template.startsWith('/widget/') || plan.operation === 'stray') return false
  const sources = Object.values(plan.params)
  if (sources.length === 0) return false
  const ours = plan.auth === 'key' ? 'scene' : plan.auth === 'foreign-key' ? 'foreign' : undefined
  if (!ours) return false
  return sources.some((value) => 'from' in value && value.from !== ours && value.from !== 'unknown')
}

interface Answer {
  status: number
  contentType: string
  text: string
  error?: string
}

async function send(url: string, request: SentRequest): Promise<Answer> {
  try {
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    })
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() }
  } catch (error) {
    return { status: 0, contentType: '', text: '', error: String(error) }
  }
}

/** What is wrong with an error answer, or undefined when it is problem+json with a snake_case code and the right status. */
export function problemShape(answer: { status: number; contentType: string; text: string }): string | undefined {
  if (!answer.contentType.startsWith('application/problem+json')) return `content-type "${answer.contentType}", body ${JSON.stringify(answer.text.slice(0, 120))}`
  let body: Record<string, unknown>
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>
  } catch {
    return `body is not JSON: ${JSON.stringify(answer.text.slice(0, 120))}`
  }
  if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code)) return `no snake_case code: ${answer.text.slice(0, 200)}`
  if (body.status !== answer.status) return `status ${String(body.status)} in the body, ${answer.status} on the wire`
  if (typeof body.detail !== 'string' || body.detail.length === 0) return `no detail: ${answer.text.slice(0, 200)}`
  return undefined
}

/** Signs that an error answer shows the server's insides: a stack frame, a source path, an SQL error. */
const INTERNALS = [/\n\s+at \S/, /\.(ts|js):\d+/, /node_modules|\/work\/|\/tmp\/|\$bunfs/, /SQLITE_|no such (table|column)|constraint failed/i, /\b(TypeError|ReferenceError|RangeError|SyntaxError): /]

export function internalsIn(text: string): string | undefined {
  const found = INTERNALS.map((pattern) => pattern.exec(text)).find(Boolean)
  return found ? `shows ${JSON.stringify(found[0])}: ${JSON.stringify(text.slice(Math.max(0, found.index - 60), found.index + 80))}` : undefined
}

async function healthz(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) })
    await response.text()
    return { status: response.status, ms: performance.now() - started }
  } catch {
    return { status: 0, ms: performance.now() - started }
  }
}

/** A fuzzed DELETE may have removed a fixture: make a whole new scene in place of any that lost a part. */
async function replaceDeletedFixtures(parley: FuzzParley): Promise<void> {
  const exists = async (key: string, path: string) =>
    (await fetch(`${parley.url}${API}${path}`, { headers: { authorization: `Bearer ${key}` } })).status === 200
  const intact = async (scene: Scene, key: string) =>
    (await exists(key, `/chatbots/${scene.chatbot_id}/flows/${scene.flow_id}`)) &&
    (await exists(key, `/chatbots/${scene.chatbot_id}/flows/${scene.meta_flow_id}`)) &&
    (await exists(key, `/chatbots/${scene.chatbot_id}/integrations/${scene.web_integration_id}`)) &&
    (await exists(key, `/chatbots/${scene.chatbot_id}/integrations/${scene.rest_integration_id}`)) &&
    (await exists(key, `/chatbots/${scene.chatbot_id}/integrations/${scene.chatapp_integration_id}`))
  for (const [index, scene] of parley.scenes.entries()) {
    if (!(await intact(scene, parley.key))) parley.scenes[index] = await createScene(parley, parley.key, `s${index}-${Date.now()}`)
  }
  if (!(await intact(parley.foreign, parley.foreignKey))) parley.foreign = await createScene(parley, parley.foreignKey, `foreign-${Date.now()}`)
  if (!(await exists(parley.key, `/chatbots/${parley.bare}`))) parley.bare = await createBareChatbot(parley, parley.key)
}

function count(map: Map<number, number>, status: number): void {
  map.set(status, (map.get(status) ?? 0) + 1)
}

function mapFor<K>(map: Map<K, Map<number, number>>, key: K): Map<number, number> {
  let inner = map.get(key)
  if (!inner) map.set(key, (inner = new Map()))
  return inner
}

/** Counts by status, by route and by kind of mutation, then every violation: what `npm run fuzz` prints. */
export function formatReport(report: FuzzReport): string {
  const statuses = (map: Map<number, number>) =>
    [...map.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}:${n}`)
      .join(' ')
  const lines = [`${report.sent} requests; by status: ${statuses(report.byStatus)}`, `worst /healthz probe: ${report.worstHealthzMs.toFixed(1)} ms, after ${report.worstHealthzAfter.slice(0, 400)}`, '', 'by route:']
  for (const [route, map] of [...report.byRoute.entries()].sort()) lines.push(`  ${route.padEnd(82)} ${statuses(map)}`)
  lines.push('', 'by mutation:')
  for (const [mutation, map] of [...report.byMutation.entries()].sort()) lines.push(`  ${mutation.padEnd(30)} ${statuses(map)}`)
  const byInvariant = new Map<string, Violation[]>()
  for (const violation of report.violations) byInvariant.set(violation.invariant, [...(byInvariant.get(violation.invariant) ?? []), violation])
  lines.push('', `violations: ${report.violations.length}${report.violations.length ? ` (${[...byInvariant.entries()].map(([k, v]) => `${k} ${v.length}`).join(', ')})` : ''}`)
  for (const violation of report.violations) {
    lines.push(`  [${violation.invariant}] #${violation.index} ${violation.status} (${violation.mutation}) ${violation.detail}`, `      ${violation.request}`)
  }
  return lines.join('\n')
}
