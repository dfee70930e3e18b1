import { afterAll, expect, test } from 'bun:test'
import { liveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'

const server = liveServer({ PARLEY_PUBLIC_RATE_LIMIT: '40' })
afterAll(() => server.stop())

test('each public route group answers 429 with Retry-After once one address spends its burst', async () => {
  const chat = await setUpWebChat(server, { flow: null })
  const statuses: number[] = []
  for (let i = 0; i < 11; i++) statuses.push((await fetch(`${server.origin}/widget/v1/config/${chat.widgetKey}`)).status)
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
  expect(statuses[10]).toBe(429)
  const hookUrl = `${server.origin}/hooks/chatapp/01ARZ3NDEKTSV4RRFFQ69G5FAV?hub.mode=subscribe`
  for (let i = 0; i < 10; i++) expect((await fetch(hookUrl)).status).toBe(404)
  const hook = await fetch(hookUrl)
  expect(hook.status).toBe(429)
  expect(Number(hook.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect((await hook.json()).code).toBe('rate_limited')
})

test('the developer API is not limited by address', async () => {
  const response = await fetch(`${server.origin}/api/dev/v1/chatbots`, { headers: { authorization: `Bearer ${server.key}` } })
  expect(response.status).toBe(200)
})
