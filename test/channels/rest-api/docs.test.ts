import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Delivery, WebhookEvent } from '../../../server/channels/rest-api/model.ts'
import type { Lookup } from '../../../server/support/outbound-url.ts'
import { curlExamples, parseCurl } from '../../support/curl-examples.ts'
import { fakeTime } from '../../outbox/support/fake-time.ts'
import { webhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { SALES_FLOW } from '../../support/web-chat.ts'
import { setUpRestApiChat } from './support/rest-api-chat.ts'
import { DOCS_ORIGIN, runCurlExample } from '../../support/run-curl-example.ts'

const page = readFileSync(new URL('../../../docs/rest-api-channel.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

/** Every fenced block of a language, parsed or as text. */
function blocks(language: string): string[] {
  return [...page.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```', 'g'))].map((match) => match[1] as string)
}

/** Values that must be as documented; the rest (ids, times) need only the documented type. */
const EXACT = new Set(['code', 'status', 'type', 'role', 'kind', 'content', 'client_id', 'external_id', 'detail', 'errors'])

function differences(documented: unknown, actual: unknown, at = ''): string[] {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)
  if (kind(documented) !== kind(actual)) return [`${at || '/'}: documented ${kind(documented)}, got ${kind(actual)}`]
  if (kind(documented) !== 'object') return []
  const doc = documented as Record<string, unknown>
  const got = actual as Record<string, unknown>
  const keys = (object: object) => Object.keys(object).sort().join(', ')
  if (keys(doc) !== keys(got)) return [`${at || '/'}: documented keys ${keys(doc)}, got ${keys(got)}`]
  return Object.keys(doc).flatMap((key) =>
    EXACT.has(key) && JSON.stringify(doc[key]) !== JSON.stringify(got[key])
      ? [`${at}/${key}: documented ${JSON.stringify(doc[key])}, got ${JSON.stringify(got[key])}`]
      : differences(doc[key], got[key], `${at}/${key}`),
  )
}

describe('docs/rest-api-channel.md: every curl example answers as documented', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  // example.com must not be reached from the tests: it resolves to nothing here.
  const nowhere: Lookup = async () => {
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  }
  beforeAll(async () => {
    app = testApp({}, { dnsLookup: nowhere })
    vars.PARLEY_KEY = app.key
    const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Docs' } })).body
    const flow = (await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, { body: { name: 'Main', type: 'conversation', flow: SALES_FLOW } })).body
    await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${flow.id}/publish`)
    vars.CHATBOT_ID = bot.id
  })
  afterAll(() => app.close())

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      await runCurlExample(app, example, vars, differences)
    })
  }

  test('they show both routes of the channel', () => {
    const shown = examples.map((example) => {
      const request = parseCurl(example.command, { PARLEY_URL: DOCS_ORIGIN, PARLEY_KEY: 'pk', CHATBOT_ID: '{chatbot_id}' })
      return `${request.method} ${decodeURIComponent(new URL(request.url).pathname)}`
    })
    expect(shown).toContain('POST /api/dev/v1/chatbots/{chatbot_id}/integrations/rest-api/messages')
    expect(shown).toContain('GET /api/dev/v1/chatbots/{chatbot_id}/integrations/rest-api/deliveries')
  })
})

describe('docs/rest-api-channel.md: the shapes it shows', () => {
  const shown = blocks('json').map((text) => JSON.parse(text) as Record<string, unknown>)

  test('every webhook body shown is a valid event of its type', () => {
    const events = shown.filter((value) => value.type === 'message.created' || value.type === 'conversation.status_changed')
    expect(events.map((event) => event.type)).toEqual(['message.created', 'conversation.status_changed'])
    for (const event of events) expect([...Value.Errors(WebhookEvent, event)].map((e) => e.path)).toEqual([])
  })

  test('the delivery log entry shown is a valid delivery', () => {
    const list = shown.find((value) => Array.isArray(value.items)) as { items: unknown[] }
    expect(list.items).toHaveLength(1)
    expect([...Value.Errors(Delivery, list.items[0])].map((e) => `${e.path} ${e.message}`)).toEqual([])
  })
})

describe('docs/rest-api-channel.md: the verification recipe', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-recipe-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const recipe = blocks('js').find((text) => text.includes('verifyParleyWebhook')) as string
  type Verify = (secret: string, headers: Record<string, string>, rawBody: string, toleranceSeconds?: number) => unknown

  async function loadRecipe(): Promise<Verify> {
    const file = join(dir, 'verify.mjs')
    writeFileSync(file, recipe)
    return ((await import(file)) as { verifyParleyWebhook: Verify }).verifyParleyWebhook
  }

  async function deliveredWebhooks(startMs: number) {
    const receiver = webhookReceiver()
    const app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' }, { outbox: { time: fakeTime(startMs) } })
    const chat = await setUpRestApiChat(app, receiver.url)
    await app.call('POST', chat.path('/integrations/rest-api/messages'), { body: { user_id: 'user-4711', text: 'hello' } })
    await app.outbox.drain()
    receiver.stop()
    await app.close()
    return { received: receiver.received, secret: chat.secret }
  }

  test('accepts real deliveries and returns their events', async () => {
    const verify = await loadRecipe()
    const { received, secret } = await deliveredWebhooks(Date.now())
    expect(received.length).toBeGreaterThan(1)
    for (const request of received) expect(verify(secret, request.headers, request.body)).toEqual(request.json)
  })

  test('refuses a changed body, another secret, and a missing header', async () => {
    const verify = await loadRecipe()
    const { received, secret } = await deliveredWebhooks(Date.now())
    const request = received[0]!
    expect(() => verify(secret, request.headers, request.body.replace('Hi', 'Ha'))).toThrow('does not match')
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request.headers, request.body)).toThrow('does not match')
    const { 'webhook-signature': _, ...unsigned } = request.headers
    expect(() => verify(secret, unsigned, request.body)).toThrow('headers are missing')
  })

  test('refuses a correctly signed delivery that is too old (a replay)', async () => {
    const verify = await loadRecipe()
    const { received, secret } = await deliveredWebhooks(Date.now() - 3_600_000)
    expect(() => verify(secret, received[0]!.headers, received[0]!.body)).toThrow('too old or too new')
    expect(verify(secret, received[0]!.headers, received[0]!.body, 7_200)).toEqual(received[0]!.json)
  })
})
