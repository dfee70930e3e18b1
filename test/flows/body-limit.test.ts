import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { testApp, type TestApp } from '../support/test-app.ts'
import { createChatbot, flowsPath } from './flow-fixtures.ts'

describe('flow bodies', () => {
  let app: TestApp
  let botId: string
  beforeAll(async () => {
    app = testApp()
    botId = await createChatbot(app, 'Big')
  })
  afterAll(() => app.close())

  /** A conversation flow of about `bytes` bytes: one long text. */
  const flowOf = (bytes: number) => ({
    version: 1,
    start: 'hello',
    states: { hello: { say: [{ text: 'x'.repeat(bytes) }], end: true } },
  })

  test('may be larger than the API\'s usual 1 MiB', async () => {
    const created = await app.call('POST', flowsPath(botId), { body: { name: 'Big', type: 'conversation', flow: flowOf(3 * 1024 * 1024) } })
    expect(created.status).toBe(201)
    expect(created.body.flow.states.hello.say[0].text).toHaveLength(3 * 1024 * 1024)
  })

  test('over 16 MiB answer 413', async () => {
    const tooBig = await app.call('POST', flowsPath(botId), { body: { name: 'Huge', type: 'conversation', flow: flowOf(16 * 1024 * 1024) } })
    expect(tooBig.status).toBe(413)
    expect(tooBig.body.code).toBe('payload_too_large')
    expect(tooBig.body.detail).toContain(String(16 * 1024 * 1024))
  })

  test('the larger limit is for flow routes only', async () => {
    const chatbot = await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'x'.repeat(2 * 1024 * 1024) } })
    expect(chatbot.status).toBe(413)
  })
})
