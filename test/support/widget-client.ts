import type { ClientMessage, ServerMessage } from '../../server/protocol/widget-protocol.ts'
import { QueuedSocket } from './queued-socket.ts'

type Of<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>

/**
 * A real WebSocket client speaking the widget protocol, for tests: it queues what the server
 * sends so a test can wait for the next message of a kind, and records how it closed.
 */
export class WidgetClient extends QueuedSocket<ServerMessage> {
  static async connect(url: string, origin?: string, headers: Record<string, string> = {}): Promise<WidgetClient> {
    const sent = origin ? { origin, ...headers } : headers
    const client = new WidgetClient(new WebSocket(url, Object.keys(sent).length > 0 ? ({ headers: sent } as unknown as string[]) : undefined))
    await QueuedSocket.settled(client.socket)
    return client
  }

  send(message: ClientMessage | Record<string, unknown> | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** Sends hello and resolves with the welcome (or throws with the close reason). */
  async hello(fields: Partial<Extract<ClientMessage, { type: 'hello' }>> = {}): Promise<Of<'welcome'>> {
    this.send({ type: 'hello', v: 1, ...fields })
    return this.next('welcome')
  }

  /** The next message of this type not yet taken, waiting up to `ms`. */
  async next<T extends ServerMessage['type']>(type: T, ms = 3000): Promise<Of<T>> {
    return (await this.take((message) => message.type === type, type, ms)) as Of<T>
  }

  /** The next n chat messages, in order. */
  async messages(n: number, ms = 3000) {
    const out = []
    for (let i = 0; i < n; i++) out.push((await this.next('message', ms)).message)
    return out
  }
}
