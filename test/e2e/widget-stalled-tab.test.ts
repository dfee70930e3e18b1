import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RawSocketClient } from '../fuzz/support/socket-raw-client.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { crashBed } from './support/crash-bed.ts'

/**
 * The send backlog limit is a setting of Bun's WebSocket server, so it is checked on the
 * compiled binary too: a tab that stops reading while agents write to it is closed (and would
 * reconnect for the history) rather than kept open with messages dropped.
 */
describe('a widget tab that stops reading, against the compiled binary', () => {
  const bed = crashBed()
  // The first file of a run to need dist/parley builds it here: longer than the default 5 s.
  beforeAll(async () => {
    await bed.start()
  }, E2E_TIMEOUT)
  afterAll(async () => {
    await bed.close()
  })

  test('is closed by the server once its backlog passes the limit', async () => {
    const chatbotId = await bed.chatbot('Stalled tab')
    const web = await bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/web`, { name: 'Site' })
    const tab = await RawSocketClient.open(`${bed.url.replace('http', 'ws')}/widget/v1/socket?key=${web.config.widget_key}`)
    tab.sendText(JSON.stringify({ type: 'hello', v: 1 }))
    expect(await tab.until((log) => log.texts.some((text) => text.includes('"welcome"')))).toBe(true)
    tab.sendText(JSON.stringify({ type: 'message', client_id: 'c1', text: 'hello' }))
    expect(await tab.until((log) => log.texts.some((text) => text.includes('Noted.')))).toBe(true)
    const [conversation] = (await bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations`)).items

    tab.pause()
    // About 40 MB of agent messages: past what the kernel's buffers hold plus the 8 MiB limit.
    // Without closing at the limit, Bun drops frames past its own and keeps the socket open.
    const text = 'z'.repeat(4096)
    const writer = async () => {
      for (let i = 0; i < 1200; i++) await bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/conversations/${conversation.id}/messages`, { text })
    }
    await Promise.all(Array.from({ length: 8 }, writer))
    tab.resume()
    expect(await tab.until((log) => log.ended, 20_000)).toBe(true)
  }, E2E_TIMEOUT)
})
