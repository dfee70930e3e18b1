import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { readFileSync } from 'node:fs'
import { ChatappDelivery, ChatappInbound, WebhookSummary } from '../../../server/channels/chatapp/model.ts'
import { curlExamples, parseCurl } from '../../support/curl-examples.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { SALES_FLOW } from '../../support/web-chat.ts'
import { fakeGraphApi, type FakeGraphApi } from './support/fake-graph-api.ts'
import { DOCS_ORIGIN, runCurlExample } from '../../support/run-curl-example.ts'

const page = readFileSync(new URL('../../../docs/chatapp-channel.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

/** Every fenced block of a language. */
const blocks = (language: string) => [...page.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```', 'g'))].map((match) => match[1] as string)

describe('docs/chatapp-channel.md: every curl example answers as documented, in order', () => {
  let app: TestApp
  let graph: FakeGraphApi
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(async () => {
    graph = fakeGraphApi()
    // The number and token of the page's examples, known to the fake provider.
    graph.register('106540352242922', 'EAAGm0PX4ZCpsBAKZCZCtokenZD9x')
    app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })
    vars.PARLEY_KEY = app.key
    const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Docs' } })).body
    const flow = (await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, { body: { name: 'Main', type: 'conversation', flow: SALES_FLOW } })).body
    await app.call('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${flow.id}/publish`)
    vars.CHATBOT_ID = bot.id
  })
  afterAll(async () => {
    await app.close()
    graph.stop()
  })

  test('the page has examples for every route of the channel', () => {
    const template = { PARLEY_URL: DOCS_ORIGIN, PARLEY_KEY: 'pk', CHATBOT_ID: '{chatbot_id}', INTEGRATION_ID: '{integration_id}' }
    const shown = new Set(examples.map((example) => {
      const request = parseCurl(example.command, template)
      return `${request.method} ${decodeURIComponent(new URL(request.url).pathname)}`
    }))
    const routes = app.http.routes
      // The handshake record is shown in integrations.md, beside the verify handshake it reports on.
      .filter((route) => (/\/integrations\/chatapp\/\w/.test(route.path) && !route.path.endsWith('/handshake')) || route.path.startsWith('/hooks/chatapp'))
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1').replace(/:(\w+)/g, '{$1}')}`)
    expect(routes.length).toBe(4)
    expect(routes.filter((route) => !shown.has(route))).toEqual([])
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      // What the bot said before this example has reached the provider, as it would have by then.
      await app.chatappOutbox.drain()
      const result = await runCurlExample(app, example, vars)
      // The webhook's summary is shown exactly.
      const request = parseCurl(example.command, vars)
      const isWebhook = request.method === 'POST' && new URL(request.url).pathname.startsWith('/hooks/')
      if (isWebhook && result.status === 200) expect(result.body).toEqual(example.response as object)
      if (result.status === 201 && typeof result.body?.id === 'string') vars.INTEGRATION_ID = result.body.id
    })
  }

  test('the JSON shown for the logs and the webhook answer fits their schemas', () => {
    const json = blocks('json').map((text) => JSON.parse(text))
    const lists = json.filter((value) => Array.isArray(value.items))
    expect(lists.length).toBe(2)
    for (const item of lists.flatMap((list) => list.items)) expect(Value.Check(ChatappDelivery, item) || Value.Check(ChatappInbound, item)).toBe(true)
    const summaries = json.filter((value) => 'statuses' in value)
    expect(summaries.length).toBe(4)
    for (const summary of summaries) expect(Value.Check(WebhookSummary, summary)).toBe(true)
  })

  test('the signature shown is the one the provider would send for that body with that secret', async () => {
    const signed = examples.find((example) => example.command.includes('X-Hub-Signature-256: sha256=212d'))
    const request = parseCurl(signed!.command, { ...vars, INTEGRATION_ID: 'x' })
    const expected = new Bun.CryptoHasher('sha256', '0123456789abcdef0123456789abcd3f').update(request.body!).digest('hex')
    expect(request.headers['x-hub-signature-256']).toBe(`sha256=${expected}`)
  })
})
