import { afterAll, expect, test } from 'bun:test'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { liveServer } from '../../support/live-server.ts'
import { setUpWebChat } from '../../support/web-chat.ts'
import { WidgetClient } from '../../support/widget-client.ts'

const server = liveServer({}, { helloTimeoutMs: 100 })
afterAll(() => server.stop())

test('a socket that never says hello is closed with 4007', async () => {
  const chat = await setUpWebChat(server, { flow: null })
  const silent = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
  expect(await silent.closedWith()).toEqual({ code: CloseCode.helloTimeout, reason: 'no hello in time' })
})

test('a socket that says hello in time stays open past the timeout', async () => {
  const chat = await setUpWebChat(server, { flow: null })
  const client = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
  await client.hello()
  await Bun.sleep(250)
  client.send({ type: 'ping' })
  await client.next('pong')
  expect(client.closed).toBeNull()
  client.close()
})
