import { afterAll, beforeAll } from 'bun:test'
import { type LiveServer, liveServer } from './live-server.ts'
import type { WebChat } from './web-chat.ts'
import { WidgetClient } from './widget-client.ts'

/**
 * For a test file of widget sockets: one live server for the file, and a `connect` that opens
 * a real socket to a web chat (optionally from an Origin) and closes it when the file ends.
 */
export function socketSuite() {
  let server: LiveServer | undefined
  const clients: WidgetClient[] = []
  beforeAll(() => {
    server = liveServer()
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await server?.stop()
  })
  const live = (): LiveServer => {
    if (!server) throw new Error('the live server starts in beforeAll')
    return server
  }
  return {
    get server() {
      return live()
    },
    async connect(chat: WebChat | string, origin?: string): Promise<WidgetClient> {
      const key = typeof chat === 'string' ? chat : chat.widgetKey
      const client = await WidgetClient.connect(live().socketUrl(key), origin)
      clients.push(client)
      return client
    },
  }
}
