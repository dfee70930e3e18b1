import { afterEach, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import type { Lookup } from '../../../server/support/outbound-url.ts'
import { activePerson, browser } from '../../people/support/people-context.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'
import { webhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import { setUpRestApiChat, summary } from './support/rest-api-chat.ts'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const UNKNOWN_ID = '01ARZ3NDEKTSV4RRFFQ69G5FAV'

/**
 * A rest-api chatbot whose webhook_url names a host on a private address outside the allow
 * list: its first messages cannot be delivered (they wait to be tried again, as for a name
 * that does not resolve), and switching the integration off fails them. Then the test
 * switches it on again, pointed at a live receiver.
 */
async function failedDeliveries() {
  const receiver = webhookReceiver()
  cleanups.push(() => receiver.stop())
  const dns: Lookup = async (host) => [{ address: host === 'hooks.example.com' ? '127.0.0.1' : '10.1.2.3' }]
  const app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' }, { dnsLookup: dns })
  cleanups.push(() => app.close())
  const chat = await setUpRestApiChat(app, 'http://private.example.com/hook')
  const said = await app.call('POST', chat.path('/integrations/rest-api/messages'), { body: { user_id: 'user-1', text: 'pricing' } })
  expect(said.status).toBe(202)
  await app.outbox.drain()
  expect((await app.call('PATCH', chat.path('/integrations/rest-api'), { body: { is_active: false } })).status).toBe(200)
  const log = await deliveries(app, chat.path())
  expect(log.items.map((item: { status: string }) => item.status)).toEqual(['failed', 'failed', 'failed'])
  const moved = await app.call('PATCH', chat.path('/integrations/rest-api'), { body: { is_active: true, webhook_url: `http://hooks.example.com:${receiver.port}/hook` } })
  expect(moved.status).toBe(200)
  return { app, chat, receiver, failed: log.items as { id: string; payload: unknown; attempts: number }[] }
}

const deliveries = async (app: TestApp, chatbotPath: string) => (await app.call('GET', `${chatbotPath}/integrations/rest-api/deliveries`)).body
const redeliver = (app: TestApp, chatbotPath: string, id: string, options: { key?: string | null; headers?: Record<string, string> } = {}) =>
  app.call('POST', `${chatbotPath}/integrations/rest-api/deliveries/${id}/redeliver`, options)

describe('redelivering a failed webhook delivery', () => {
  test('sends it again with the same webhook-id and payload, signed with the current secret, to the current URL', async () => {
    const { app, chat, receiver, failed } = await failedDeliveries()
    const oldest = failed[2] as (typeof failed)[number]
    const rotated = await app.call('PATCH', chat.path('/integrations/rest-api'), { body: { rotate_secret: true } })
    const secret = rotated.body.signing_secret as string
    expect(secret).not.toBe(chat.secret)

    const answer = await redeliver(app, chat.path(), oldest.id)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ id: oldest.id, status: 'pending', payload: oldest.payload, finished_at: null })
    await app.outbox.drain()

    expect(receiver.received).toHaveLength(1)
    const got = receiver.received[0] as (typeof receiver.received)[number]
    expect(got.headers['webhook-id']).toBe(oldest.id)
    expect(got.json).toEqual(oldest.payload)
    expect(new Webhook(secret).verify(got.body, got.headers)).toEqual(got.json)
    expect(summary(got.json)).toBe('bot: Hi! How can I help?')
    const after = (await deliveries(app, chat.path())).items.find((item: { id: string }) => item.id === oldest.id)
    expect(after).toMatchObject({ status: 'delivered', attempts: oldest.attempts + 1, last_status_code: 204 })
  })

  test('a delivery that did not fail is refused with 409, and so is a second redelivery while the first is under way', async () => {
    const { app, chat, failed } = await failedDeliveries()
    const id = (failed[0] as { id: string }).id
    expect((await redeliver(app, chat.path(), id)).status).toBe(200)
    const again = await redeliver(app, chat.path(), id)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('delivery_not_failed')
    await app.outbox.drain()
    const delivered = await redeliver(app, chat.path(), id)
    expect(delivered.status).toBe(409)
    expect(delivered.body.detail).toContain('delivered')
  })

  test('redelivered deliveries of one conversation leave one at a time, in the order they were redelivered', async () => {
    const { app, chat, receiver, failed } = await failedDeliveries()
    for (const { id } of [...failed].reverse()) expect((await redeliver(app, chat.path(), id)).status).toBe(200)
    const waiting = app.db.query<{ n: number }, []>("SELECT count(*) AS n FROM outbox WHERE status = 'pending' AND next_attempt_at IS NOT NULL").get()?.n
    expect(waiting).toBe(1)
    await app.outbox.drain()
    expect(receiver.received.map((got) => got.headers['webhook-id'])).toEqual([...failed].reverse().map((item) => item.id))
  })

  test('while the integration is switched off it is refused with 409 and stays failed', async () => {
    const { app, chat, failed } = await failedDeliveries()
    await app.call('PATCH', chat.path('/integrations/rest-api'), { body: { is_active: false } })
    const refused = await redeliver(app, chat.path(), (failed[0] as { id: string }).id)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('integration_inactive')
    expect((await deliveries(app, chat.path())).items[0].status).toBe('failed')
  })

  test("another workspace's key, an unknown id, another chatbot's delivery and an agent are refused", async () => {
    const { app, chat, failed } = await failedDeliveries()
    const id = (failed[0] as { id: string }).id
    const other = await redeliver(app, chat.path(), id, { key: app.otherWorkspaceKey() })
    expect(other.status).toBe(404)
    expect(other.headers.get('content-type')).toBe('application/problem+json')
    expect((await redeliver(app, chat.path(), UNKNOWN_ID)).body).toMatchObject({ status: 404, detail: 'delivery not found' })
    const second = await setUpRestApiChat(app, 'http://private.example.com/other')
    expect((await redeliver(app, second.path(), id)).status).toBe(404)
    const agent = await activePerson(app, 'sam@acme.io', 'agent')
    const forbidden = await redeliver(app, chat.path(), id, { key: null, headers: browser(agent.cookie) })
    expect(forbidden.status).toBe(403)
    expect((await deliveries(app, chat.path())).items.every((item: { status: string }) => item.status === 'failed')).toBe(true)
  })
})
