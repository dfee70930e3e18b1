import { afterAll, expect, test } from 'bun:test'
import { crashBed, tally } from './support/crash-bed.ts'
import { outsideWorld } from './support/crash-load.ts'

/**
 * kill -9 of the compiled binary with a backlog of outgoing deliveries (webhooks of the rest-api
 * channel, messages to the messaging provider) and slow receivers, so that at the kill some are
 * delivered, some being sent (claimed, perhaps already received) and most waiting. After the
 * restart every delivery arrives at least once; only those being sent at the kill arrive twice.
 */

const CONVERSATIONS = 6
const MESSAGES_EACH = 12
const SLOW_MS = 250
const BACKLOG_MS = 400

const world = outsideWorld()
const bed = crashBed(world.env)
afterAll(async () => {
  await bed.close()
  world.stop()
})

interface Row {
  id: string
  kind: 'webhook' | 'chatapp'
  status: string
  attempts: number
  body: string
}

/** What each receiver knows a delivery by: the webhook-id, or the text of the message to the provider (all distinct here). */
const keyOf = (row: Row) => (row.kind === 'webhook' ? row.id : (JSON.parse(row.body) as { text: { body: string } }).text.body)
const webhookKeys = () => world.receiver.received.map((got) => got.headers['webhook-id'] ?? '')
const providerKeys = () => world.graph.received.map((got) => got.json?.text?.body as string)

test('kill -9 with a backlog of webhook and chatapp deliveries: each delivered at least once after the restart, twice only if it was being sent', async () => {
  world.receiver.otherwise(async () => (await Bun.sleep(SLOW_MS), new Response(null, { status: 204 })))
  world.graph.answerAfter(SLOW_MS)
  await bed.start()

  // Chatbots without a flow: the only deliveries are the agents' messages (and a handoff event per conversation).
  const restApiBot = await bed.chatbot('API', null)
  await bed.must('POST', `/api/dev/v1/chatbots/${restApiBot}/integrations/rest-api`, { webhook_url: world.receiver.url, name: 'Back office' })
  const chatappBot = await bed.chatbot('Chat app', null)
  world.graph.register('106540352242923', 'EAAG-backlog-token')
  const chatapp = await bed.must('POST', `/api/dev/v1/chatbots/${chatappBot}/integrations/chatapp`, {
    phone_number_id: '106540352242923',
    access_token: 'EAAG-backlog-token',
    verify_token: 'verify-me-please',
  })
  const conversations: { bot: string; id: string }[] = []
  for (let k = 0; k < CONVERSATIONS; k++) {
    const opened = await bed.must('POST', `/api/dev/v1/chatbots/${restApiBot}/integrations/rest-api/messages`, { user_id: `user-${k}`, text: 'hello' })
    conversations.push({ bot: restApiBot, id: opened.conversation_id })
    const from = `4479111235${String(10 + k)}`
    const hook = await fetch(`${bed.url}${new URL(chatapp.config.callback_url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'messages', value: {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242923' },
          contacts: [{ profile: { name: 'Backlog' }, wa_id: from }],
          messages: [{ from, id: `wamid.backlog_${k}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'hello' } }],
        } }] }],
      }),
    })
    expect(hook.status).toBe(200)
  }
  const chatappConversations = await bed.must('GET', `/api/dev/v1/chatbots/${chatappBot}/conversations?limit=50`)
  for (const item of chatappConversations.items) conversations.push({ bot: chatappBot, id: item.id })
  expect(conversations).toHaveLength(2 * CONVERSATIONS)

  // The backlog: each agent's messages in order, all conversations at once.
  await Promise.all(
    conversations.map(async ({ bot, id }, c) => {
      for (let n = 0; n < MESSAGES_EACH; n++) await bed.must('POST', `/api/dev/v1/chatbots/${bot}/conversations/${id}/messages`, { text: `agent ${c}-${n}` })
    }),
  )
  await Bun.sleep(BACKLOG_MS)
  await bed.kill()
  const receivedBeforeKill = { webhook: new Set(webhookKeys()), chatapp: new Set(providerKeys()) }

  const atKill = bed.read((db) => {
    const rows = db.query<Row, []>('SELECT id, kind, status, attempts, body FROM outbox').all()
    // Standing for the 40 s lease of a delivery cut off while being sent: it is due again at once rather than the test waiting it out.
    db.run(`UPDATE outbox SET next_attempt_at = ? WHERE status = 'pending' AND next_attempt_at > ?`, [new Date().toISOString(), new Date().toISOString()])
    return rows
  })
  world.receiver.otherwise(204)
  world.graph.answerAfter(0)
  await bed.start()

  const everyKey = { webhook: atKill.filter((row) => row.kind === 'webhook').map(keyOf), chatapp: atKill.filter((row) => row.kind === 'chatapp').map(keyOf) }
  const arrived = () => ({ webhook: new Set(webhookKeys()), chatapp: new Set(providerKeys()) })
  for (let waited = 0; ; waited += 50) {
    const now = arrived()
    if (everyKey.webhook.every((key) => now.webhook.has(key)) && everyKey.chatapp.every((key) => now.chatapp.has(key))) break
    if (waited > 20_000) throw new Error('not every delivery arrived after the restart')
    await Bun.sleep(50)
  }
  await Bun.sleep(100)
  await bed.kill()
  const afterRestart = bed.read((db) => db.query<Row, []>('SELECT id, kind, status, attempts, body FROM outbox').all())

  const summary = (kind: 'webhook' | 'chatapp', received: string[]) => {
    const rows = atKill.filter((row) => row.kind === kind)
    const deliveredBefore = rows.filter((row) => row.status === 'delivered').map(keyOf)
    const pending = rows.filter((row) => row.status === 'pending')
    const inFlight = new Set(pending.filter((row) => row.attempts > 0).map(keyOf))
    const counts = tally(received)
    const duplicates = [...counts].filter(([, count]) => count > 1).map(([key]) => key)
    const missing = rows.map(keyOf).filter((key) => !counts.has(key))
    return { rows: rows.length, deliveredBefore, pending: pending.length, inFlight, duplicates, missing }
  }
  const webhook = summary('webhook', webhookKeys())
  const provider = summary('chatapp', providerKeys())
  for (const [name, s] of [['webhooks', webhook], ['chatapp', provider]] as const) {
    console.log(
      `crash: kill -9 with a delivery backlog, ${name}: rows=${s.rows} delivered before the kill=${s.deliveredBefore.length} being sent=${s.inFlight.size} waiting=${s.pending - s.inFlight.size}; ` +
        `after the restart every one delivered at least once, missing=${s.missing.length} duplicates=${s.duplicates.length} (all among those being sent)`,
    )
  }

  for (const s of [webhook, provider]) {
    // The kill really did cut into a backlog: some delivered, some waiting.
    expect(s.rows).toBeGreaterThanOrEqual(CONVERSATIONS * MESSAGES_EACH)
    expect(s.deliveredBefore.length).toBeGreaterThan(0)
    expect(s.pending - s.inFlight.size).toBeGreaterThan(0)
    expect(s.missing).toEqual([])
    expect(s.duplicates.filter((key) => !s.inFlight.has(key))).toEqual([])
  }
  // End to end: every agent's message answered 201 reached its receiver, whichever side of the kill it was sent on.
  const acknowledged = conversations.flatMap((_, c) => Array.from({ length: MESSAGES_EACH }, (__, n) => `agent ${c}-${n}`))
  const reached = new Set([
    ...world.receiver.received.map((got) => got.json?.data?.message?.content?.text as string),
    ...providerKeys(),
  ])
  expect(acknowledged.filter((text) => !reached.has(text))).toEqual([])
  // What was marked delivered was received before the kill, and never sent again.
  expect(webhook.deliveredBefore.every((key) => receivedBeforeKill.webhook.has(key))).toBe(true)
  expect(provider.deliveredBefore.every((key) => receivedBeforeKill.chatapp.has(key))).toBe(true)
  expect(afterRestart.filter((row) => row.status !== 'delivered')).toEqual([])
}, 60_000)
