import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { newSigningSecret } from '../../server/integrations/rest-api-integration.ts'
import { type DeliveryTarget, outboxWorker, type OutboxWorkerDeps } from '../../server/outbox/outbox-worker.ts'
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../server/outbox/retry-policy.ts'
import { webhookSender } from '../../server/outbox/webhook-sender.ts'
import { createLogger } from '../../server/support/logger.ts'
import { outboundUrlPolicy } from '../../server/support/outbound-url.ts'
import { type FakeTime, fakeTime } from './support/fake-time.ts'
import { type OutboxDb, outboxDb } from './support/outbox-db.ts'
import { webhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts'

const secret = newSigningSecret()
let env: OutboxDb
let receiver: WebhookReceiver
let targets: Map<string, DeliveryTarget>
const workers: { close(): Promise<void> }[] = []

beforeEach(() => {
  env = outboxDb()
  receiver = webhookReceiver()
  targets = new Map([['int', { ok: true, url: receiver.url, secret }]])
})
afterEach(async () => {
  receiver.stop()
  for (const worker of workers.splice(0)) await worker.close()
  env.close()
})

/** A worker as the server runs it (real sender, real receiver), on a clock the test moves. */
function startWorker(time: FakeTime, options: Partial<OutboxWorkerDeps> & { allow?: string[] } = {}) {
  const worker = outboxWorker({
    claims: env.claims,
    send: webhookSender({ policy: outboundUrlPolicy(options.allow ?? ['127.0.0.1']), time, timeoutMs: 10_000 }),
    target: (id) => targets.get(id) ?? { ok: false, reason: 'the integration was deleted' },
    logger: createLogger('silent'),
    time,
    random: () => 0.5,
    shutdownGraceMs: 0,
    ...options,
  })
  worker.start()
  workers.push(worker)
  return worker
}

const verifies = (headers: Record<string, string>, body: string) => new Webhook(secret).verify(body, headers)
const keyAndN = () => receiver.events().map((event: { key: string; n: number }) => `${event.key}${event.n}`)

describe('the outbox worker', () => {
  test('sends a due delivery once, signed, and records it delivered', async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    const worker = startWorker(time)
    await worker.drain()
    await worker.drain()
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]?.headers['webhook-id']).toBe(id!)
    expect(verifies(receiver.received[0]!.headers, receiver.received[0]!.body)).toEqual({ key: 'c1', n: 0 })
    expect(env.row(id!)).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204, last_error: null, next_attempt_at: null, url: receiver.url })
  })

  test("one key's deliveries leave one at a time, in order; a failing one holds back only its own key", async () => {
    const time = fakeTime()
    const a = env.enqueue(receiver.url, 'A', 3, time.now())
    const [b] = env.enqueue(receiver.url, 'B', 1, time.now())
    let failedOnce = false
    receiver.otherwise(({ json: event }) => {
      if (event.key === 'A' && !failedOnce) {
        failedOnce = true
        return new Response('not yet', { status: 500 })
      }
      return new Response(null, { status: 204 })
    })
    const worker = startWorker(time)
    await worker.drain()
    expect(keyAndN().sort()).toEqual(['A0', 'B0'])
    expect(env.row(b!)?.status).toBe('delivered')
    expect(env.row(a[0]!)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500: not yet' })
    expect(env.row(a[1]!)).toMatchObject({ status: 'pending', attempts: 0 })

    time.advance(10_000)
    await worker.drain()
    expect(keyAndN().filter((sent) => sent.startsWith('A'))).toEqual(['A0', 'A0', 'A1', 'A2'])
    expect(a.map((id) => env.row(id)?.status)).toEqual(['delivered', 'delivered', 'delivered'])
  })

  test('retries after 500s and a timeout, then succeeds, with the same webhook-id and fresh signatures', async () => {
    // Starts in the past so that every attempt's timestamp is within the verifier's 5 minutes.
    const time = fakeTime(Date.now() - 200_000)
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    receiver.respond(500, 503, 'hang', 204)
    const worker = startWorker(time)
    await worker.drain()
    expect(env.row(id!)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 })
    time.advance(9_999)
    await worker.drain()
    expect(receiver.received).toHaveLength(1)
    time.advance(1)
    await worker.drain()
    expect(env.row(id!)).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 503 })
    time.advance(60_000)
    const draining = worker.drain()
    await receiver.waitFor(3)
    time.advance(10_000)
    await draining
    expect(env.row(id!)).toMatchObject({ status: 'pending', attempts: 3, last_status_code: null, last_error: 'no answer within 10 s' })
    time.advance(300_000)
    await worker.drain()

    expect(env.row(id!)).toMatchObject({ status: 'delivered', attempts: 4, last_status_code: 204, last_error: null })
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id!, id!, id!, id!])
    for (const request of receiver.received) expect(verifies(request.headers, request.body)).toEqual({ key: 'c1', n: 0 })
    const stamps = receiver.received.map((r) => Number(r.headers['webhook-timestamp']))
    expect(stamps).toEqual([...stamps].sort((x, y) => x - y))
    expect(new Set(stamps).size).toBe(4)
  })

  test('a 4xx answer is tried 3 times in all, then the delivery fails with the answer recorded', async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    receiver.otherwise(404)
    const worker = startWorker(time)
    await worker.drain()
    time.advance(10_000)
    await worker.drain()
    time.advance(60_000)
    await worker.drain()
    time.advance(86_400_000)
    await worker.drain()
    expect(receiver.received).toHaveLength(3)
    expect(env.row(id!)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status_code: 404,
      last_error: 'gave up after 3 attempts; the last: HTTP 404: answer 404',
      next_attempt_at: null,
    })
  })

  test('when a delivery fails for good, the next one of its key goes out, at once', async () => {
    const time = fakeTime()
    const [first, second] = env.enqueue(receiver.url, 'c1', 2, time.now())
    receiver.respond(410, 410, 410)
    const worker = startWorker(time)
    await worker.drain()
    expect(env.row(second!)).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: null })
    time.advance(10_000)
    await worker.drain()
    time.advance(60_000)
    await worker.drain()
    expect(env.row(first!)).toMatchObject({ status: 'failed', attempts: 3 })
    expect(env.row(second!)).toMatchObject({ status: 'delivered', attempts: 1 })
    expect(keyAndN()).toEqual(['c10', 'c10', 'c10', 'c11'])
  })

  test(`the whole schedule ends in failure after ${MAX_ATTEMPTS} attempts`, async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    receiver.otherwise(503)
    const worker = startWorker(time)
    await worker.drain()
    for (const wait of RETRY_DELAYS_MS) {
      expect(env.row(id!)?.status).toBe('pending')
      time.advance(wait)
      await worker.drain()
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS)
    expect(env.row(id!)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: `gave up after ${MAX_ATTEMPTS} attempts; the last: HTTP 503: answer 503` })
  })

  test('a refused address fails the delivery at once with the reason, and nothing is sent', async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    const worker = startWorker(time, { allow: [] })
    await worker.drain()
    expect(receiver.received).toHaveLength(0)
    expect(env.row(id!)?.status).toBe('failed')
    expect(env.row(id!)?.last_error).toStartWith('webhook_url points to 127.0.0.1, a loopback address')
  })

  test('a delivery whose integration is gone fails with the reason', async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now(), 'deleted-one')
    await startWorker(time).drain()
    expect(env.row(id!)).toMatchObject({ status: 'failed', last_error: 'the integration was deleted' })
  })

  test("dropping an integration fails its pending deliveries with the reason and leaves others'", async () => {
    const time = fakeTime()
    const mine = env.enqueue(receiver.url, 'c1', 2, time.now() + 60_000)
    const [theirs] = env.enqueue(receiver.url, 'c2', 1, time.now() + 60_000, 'other')
    const worker = startWorker(time)
    await worker.dropIntegration('int', 'the integration was switched off')
    expect(mine.map((id) => env.row(id)?.status)).toEqual(['failed', 'failed'])
    expect(env.row(mine[0]!)?.last_error).toBe('the integration was switched off')
    expect(env.row(theirs!)?.status).toBe('pending')
  })

  test('a new worker picks up what an earlier process left pending', async () => {
    const time = fakeTime()
    const ids = env.enqueue(receiver.url, 'c1', 2, time.now())
    await startWorker(time).drain()
    expect(ids.map((id) => env.row(id)?.status)).toEqual(['delivered', 'delivered'])
    expect(keyAndN()).toEqual(['c10', 'c11'])
  })

  test('a delivery claimed by a process that died is sent again once its lease runs out', async () => {
    const start = Date.now()
    const [id] = env.enqueue(receiver.url, 'c1', 1, start)
    receiver.respond('hang')
    // The first process sends, then is never heard of again (its own clock never moves).
    const first = startWorker(fakeTime(start))
    first.wake()
    await receiver.waitFor(1)
    expect(env.row(id!)).toMatchObject({ status: 'pending', attempts: 1 })

    const secondTime = fakeTime(start)
    const second = startWorker(secondTime)
    await second.drain()
    expect(receiver.received).toHaveLength(1)
    secondTime.advance(40_001)
    await second.drain()
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]?.headers['webhook-id']).toBe(id!)
    expect(env.row(id!)).toMatchObject({ status: 'delivered', attempts: 2 })
  })

  test('closing waits for a delivery under way to finish', async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    let answer = (_: Response) => {}
    receiver.respond(() => new Promise<Response>((resolve) => (answer = resolve)))
    const worker = startWorker(time, { shutdownGraceMs: 5_000, time })
    worker.wake()
    await receiver.waitFor(1)
    const closing = worker.close()
    answer(new Response(null, { status: 200 }))
    await closing
    env.batch.flush()
    expect(env.row(id!)).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 })
  })

  test('closing cuts a delivery short after the grace period; the next start sends it again at once', async () => {
    const time = fakeTime()
    const [id] = env.enqueue(receiver.url, 'c1', 1, time.now())
    receiver.respond('hang')
    const worker = startWorker(time, { shutdownGraceMs: 5_000 })
    worker.wake()
    await receiver.waitFor(1)
    const closing = worker.close()
    time.advance(5_000)
    await closing
    env.batch.flush()
    expect(env.row(id!)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'interrupted by a shutdown; sent again on the next start' })

    await startWorker(time).drain()
    expect(env.row(id!)).toMatchObject({ status: 'delivered', attempts: 2 })
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id!, id!])
  })

  test('finished deliveries are forgotten after the retention period, pending ones never', async () => {
    const time = fakeTime()
    const [done] = env.enqueue(receiver.url, 'c1', 1, time.now())
    const [waiting] = env.enqueue(receiver.url, 'c2', 1, time.now() + 30 * 86_400_000)
    const worker = startWorker(time, { retentionMs: 86_400_000 })
    await worker.drain()
    expect(env.row(done!)?.status).toBe('delivered')
    time.advance(6 * 3_600_000)
    env.batch.flush()
    expect(env.row(done!)).toBeDefined()
    time.advance(24 * 3_600_000)
    env.batch.flush()
    expect(env.row(done!)).toBeUndefined()
    expect(env.row(waiting!)?.status).toBe('pending')
  })

  test('a worker claims and sends only its own kind of delivery (webhook unless told), in order', async () => {
    const time = fakeTime()
    const other = webhookReceiver()
    try {
      targets.set('int-2', { ok: true, url: other.url, secret })
      const webhooks = env.enqueue(receiver.url, 'c1', 2, time.now())
      const calls = env.enqueue(other.url, 'c2', 2, time.now(), 'int-2', 'chatapp')
      const worker = startWorker(time, { retentionMs: 86_400_000 })
      await worker.drain()
      expect(keyAndN()).toEqual(['c10', 'c11'])
      expect(other.received).toHaveLength(0)
      expect(calls.map((id) => env.row(id)).map((row) => [row?.kind, row?.status, row?.attempts])).toEqual([
        ['chatapp', 'pending', 0],
        ['chatapp', 'pending', 0],
      ])

      const second = startWorker(time, { kind: 'chatapp', retentionMs: 86_400_000 })
      await second.drain()
      expect(other.events().map((event: { key: string; n: number }) => `${event.key}${event.n}`)).toEqual(['c20', 'c21'])
      expect(receiver.received).toHaveLength(2)
      expect(webhooks.map((id) => env.row(id)?.kind)).toEqual(['webhook', 'webhook'])
      expect(calls.map((id) => env.row(id)?.status)).toEqual(['delivered', 'delivered'])
      // A webhook receiver gives no receipt.
      expect(env.row(calls[0]!)?.receipt).toBeNull()
    } finally {
      other.stop()
    }
  })
})
