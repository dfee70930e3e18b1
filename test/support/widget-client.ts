import type { ClientMessage, ServerMessage } from '../../server/protocol/widget-protocol.ts'

type Of<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>

/**
 * A real WebSocket client speaking the widget protocol, for tests: it queues what the server
 * sends so a test can wait for the next message of a kind, and records how it closed.
 */
export class WidgetClient {
  readonly received: ServerMessage[] = []
  closed: { code: number; reason: string } | null = null
  private readonly socket: WebSocket
  private waiters: (() => void)[] = []

  private constructor(url: string, origin?: string) {
    this.socket = new WebSocket(url, origin ? ({ headers: { origin } } as unknown as string[]) : undefined)
    this.socket.onmessage = (event) => {
      this.received.push(JSON.parse(String(event.data)) as ServerMessage)
      this.wake()
    }
    this.socket.onclose = (event) => {
      this.closed = { code: event.code, reason: event.reason }
      this.wake()
    }
  }

  static async connect(url: string, origin?: string): Promise<WidgetClient> {
    const client = new WidgetClient(url, origin)
    await new Promise<void>((resolve) => {
      client.socket.addEventListener('open', () => resolve(), { once: true })
      client.socket.addEventListener('close', () => resolve(), { once: true })
    })
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
    const deadline = Date.now() + ms
    for (;;) {
      const index = this.received.findIndex((message) => message.type === type)
      if (index >= 0) return this.received.splice(index, 1)[0] as Of<T>
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) while waiting for ${type}`)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no ${type} within ${ms} ms; got ${JSON.stringify(this.received)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** The next n chat messages, in order. */
  async messages(n: number, ms = 3000) {
    const out = []
    for (let i = 0; i < n; i++) out.push((await this.next('message', ms)).message)
    return out
  }

  /** Resolves once the server has closed the socket. */
  async closedWith(ms = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('the socket stayed open')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    return this.closed
  }

  close(): void {
    this.socket.close()
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter()
  }
}
