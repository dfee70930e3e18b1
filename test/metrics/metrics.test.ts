import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { billingFlow } from '../autopilot/support/agent-chat.ts'
import { DeskClient } from '../desk/support/desk-client.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { webhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { activePerson, ORIGIN } from '../people/support/people-context.ts'
import { type LiveServer, liveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'

const TOKEN = 'metrics-token-0123456789abcdef0123456789'

/** One sample of the exposition: `name{labels} value`, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

async function scrape(server: LiveServer, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<string> {
  const answer = await fetch(`${server.origin}/metrics`, { headers })
  expect(answer.status).toBe(200)
  return await answer.text()
}

async function until(server: LiveServer, series: string, wanted: (value: number | undefined) => boolean): Promise<string> {
  let text = ''
  for (let waited = 0; waited < 10_000; waited += 25) {
    text = await scrape(server)
    if (wanted(sample(text, series))) return text
    await Bun.sleep(25)
  }
  throw new Error(`${series} never became what was wanted; last: ${sample(text, series)}`)
}

describe('GET /metrics: who may read it', () => {
  const server = liveServer({ PARLEY_METRICS_TOKEN: TOKEN })
  const trusting = liveServer({ PARLEY_TRUSTED_PROXIES: '127.0.0.1' })
  afterAll(async () => {
    await server.stop()
    await trusting.stop()
  })

  test('the token as a Bearer token reads it, in the Prometheus text format', async () => {
    const answer = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await answer.text()).toContain('# TYPE parley_http_requests_total counter')
  })

  test('no token, a wrong one, or one of another length: 401 with the way in, in problem+json', async () => {
    for (const authorization of [null, `Bearer ${TOKEN.slice(0, -1)}x`, 'Bearer short', `Basic ${btoa(`x:${TOKEN}`)}`]) {
      const answer = await fetch(`${server.origin}/metrics`, { headers: authorization ? { authorization } : {} })
      expect(answer.status).toBe(401)
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      const body = await answer.json()
      expect(body.code).toBe('metrics_unauthorized')
      expect(body.detail).toContain('PARLEY_METRICS_TOKEN')
    }
  })

  test('without a token, a trusted address reads it; a client forwarded by it does not', async () => {
    expect((await fetch(`${trusting.origin}/metrics`)).status).toBe(200)
    expect((await fetch(`${trusting.origin}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(401)
    expect((await fetch(`${server.origin}/metrics`)).status).toBe(401)
  })
})

describe('GET /metrics: what it counts', () => {
  const model = fakeChatCompletions(() => ({ text: 'Your invoice is paid.', usage: { prompt_tokens: 11, completion_tokens: 7 } }))
  const failing = webhookReceiver()
  const healthy = webhookReceiver()
  const server = liveServer({ PARLEY_METRICS_TOKEN: TOKEN, PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_PUBLIC_URL: ORIGIN })
  afterAll(async () => {
    await server.stop()
    model.stop()
    failing.stop()
    healthy.stop()
  })
  let chatbotId = ''
  beforeAll(async () => {
    chatbotId = (await server.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Counted' } })).body.id
  })

  test('requests by route template, method and status, with a latency histogram', async () => {
    for (let i = 0; i < 3; i++) expect((await server.call('GET', `/api/dev/v1/chatbots/${chatbotId}`)).status).toBe(200)
    await fetch(`${server.origin}/api/dev/v1/chatbots/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { headers: { authorization: `Bearer ${server.key}` } })
    await fetch(`${server.origin}/no/such/page/${crypto.randomUUID()}`)
    await fetch(`${server.origin}/healthz`)
    const text = await scrape(server)
    const route = 'route="/api/dev/v1/chatbots/:chatbot_id"'
    expect(sample(text, `parley_http_requests_total{method="GET",${route},status="200"}`)).toBe(3)
    expect(sample(text, `parley_http_requests_total{method="GET",${route},status="404"}`)).toBe(1)
    expect(sample(text, 'parley_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1)
    expect(sample(text, 'parley_http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(1)
    expect(text).not.toContain('/no/such/page')
    expect(sample(text, `parley_http_request_duration_seconds_count{method="GET",${route}}`)).toBe(4)
    expect(sample(text, `parley_http_request_duration_seconds_bucket{method="GET",${route},le="+Inf"}`)).toBe(4)
    expect(sample(text, `parley_http_request_duration_seconds_sum{method="GET",${route}}`)).toBeGreaterThan(0)
    const buckets = text.split('\n').filter((row) => row.startsWith(`parley_http_request_duration_seconds_bucket{method="GET",${route},`)).map((row) => Number(row.split(' ')[1]))
    expect(buckets).toEqual(buckets.toSorted((a, b) => a - b))
  })

  test('open widget and desk sockets, and messages per channel and role', async () => {
    const chat = await setUpWebChat(server)
    const before = await scrape(server)
    expect(sample(before, 'parley_widget_sockets_open')).toBe(0)
    expect(sample(before, 'parley_desk_sockets_open')).toBe(0)
    const visitor = await WidgetClient.connect(server.socketUrl(chat.widgetKey), 'https://shop.test')
    await visitor.hello()
    const ada = await activePerson(server, 'ada@acme.io', 'admin')
    const desk = await DeskClient.connect(`ws://127.0.0.1:${server.server.port}/app/socket`, { cookie: ada.cookie, origin: ORIGIN })
    visitor.send({ type: 'message', client_id: 'm1', text: 'hello' })
    await visitor.messages(2)
    const open = await until(server, 'parley_desk_sockets_open', (value) => value === 1)
    expect(sample(open, 'parley_widget_sockets_open')).toBe(1)
    expect(sample(open, 'parley_messages_total{channel="web",role="visitor"}')).toBe(1)
    expect(sample(open, 'parley_messages_total{channel="web",role="bot"}')).toBeGreaterThanOrEqual(1)
    visitor.close()
    desk.close()
    await until(server, 'parley_widget_sockets_open', (value) => value === 0)
  })

  test('agent runs by outcome with their latency, and the model tokens they used', async () => {
    await server.call('PATCH', `/api/dev/v1/chatbots/${chatbotId}`, { body: { llm: { base_url: model.baseUrl, model: 'fake-1' } } })
    const flow = await server.call('POST', `/api/dev/v1/chatbots/${chatbotId}/flows`, { body: { name: 'Billing', type: 'conversation', flow: billingFlow(null) } })
    await server.call('POST', `/api/dev/v1/chatbots/${chatbotId}/flows/${flow.body.id}/publish`)
    const web = await server.call('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/web`, { body: { name: 'Site' } })
    const visitor = await WidgetClient.connect(server.socketUrl(web.body.config.widget_key), 'https://shop.test')
    await visitor.hello()
    visitor.send({ type: 'message', client_id: 'q1', text: 'Is my invoice paid?' })
    const text = await until(server, 'parley_agent_runs_total{outcome="answer"}', (value) => value === 1)
    visitor.close()
    expect(sample(text, 'parley_agent_run_duration_seconds_count')).toBe(1)
    expect(sample(text, 'parley_agent_run_duration_seconds_bucket{le="+Inf"}')).toBe(1)
    expect(sample(text, 'parley_model_tokens_total{kind="prompt"}')).toBe(11)
    expect(sample(text, 'parley_model_tokens_total{kind="completion"}')).toBe(7)
  })

  test('the outbox: deliveries waiting, and attempts by result', async () => {
    failing.otherwise(500)
    const [bad, good] = [failing, healthy]
    const bots = []
    for (const receiver of [bad, good]) {
      const bot = (await server.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Webhooks' } })).body.id
      await server.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/rest-api`, { body: { name: 'Back office', webhook_url: receiver.url } })
      const flow = await server.call('POST', `/api/dev/v1/chatbots/${bot}/flows`, { body: { name: 'Echo', type: 'conversation', flow: { version: 1, start: 'a', states: { a: { say: [{ text: 'Noted.' }], on: [{ to: 'a' }] } } } } })
      await server.call('POST', `/api/dev/v1/chatbots/${bot}/flows/${flow.body.id}/publish`)
      bots.push(bot)
    }
    for (const bot of bots) {
      expect((await server.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/rest-api/messages`, { body: { user_id: 'u1', text: 'hi' } })).status).toBe(202)
    }
    const text = await until(server, 'parley_outbox_attempts_total{kind="webhook",result="retry"}', (value) => value !== undefined && value >= 1)
    const delivered = await until(server, 'parley_outbox_attempts_total{kind="webhook",result="delivered"}', (value) => value !== undefined && value >= 1)
    expect(sample(text, 'parley_outbox_pending{kind="webhook"}')).toBeGreaterThanOrEqual(1)
    expect(sample(delivered, 'parley_outbox_attempts_total{kind="webhook",result="failed"}')).toBe(0)
  })

  test('the database, the process, and the build', async () => {
    const text = await scrape(server)
    expect(sample(text, 'parley_database_bytes')).toBeGreaterThan(4096)
    expect(sample(text, 'parley_database_wal_bytes')).toBeGreaterThanOrEqual(0)
    expect(text).toMatch(/^parley_build_info\{version="\d+\.\d+\.\d+"\} 1$/m)
    expect(sample(text, 'process_start_time_seconds')).toBeLessThanOrEqual(Date.now() / 1000)
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(1_000_000)
    // No backups are scheduled here: their figures are absent rather than made up.
    expect(sample(text, 'parley_backup_newest_age_seconds')).toBeUndefined()
  })
})
