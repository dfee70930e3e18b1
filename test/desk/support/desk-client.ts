/**
 * A real desk socket for tests: opened with a session cookie and an Origin, it queues what
 * the server sends so a test can wait for the next frame of a kind, and records how it closed.
 */
export class DeskClient {
  readonly received: any[] = []
  closed: { code: number; reason: string } | null = null
  private readonly socket: WebSocket
  private waiters: (() => void)[] = []

  private constructor(url: string, headers: Record<string, string>) {
    this.socket = new WebSocket(url, { headers } as unknown as string[])
    this.socket.onmessage = (event) => {
      this.received.push(JSON.parse(String(event.data)))
      this.wake()
    }
    this.socket.onclose = (event) => {
      this.closed = { code: event.code, reason: event.reason }
      this.wake()
    }
  }

  /** Opens the socket; resolves once it is open or was refused. */
  static async connect(url: string, headers: Record<string, string>): Promise<DeskClient> {
    const client = new DeskClient(url, headers)
    await new Promise<void>((resolve) => {
      client.socket.addEventListener('open', () => resolve(), { once: true })
      client.socket.addEventListener('close', () => resolve(), { once: true })
      client.socket.addEventListener('error', () => resolve(), { once: true })
    })
    return client
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The next frame matching, taken from the queue, waiting up to `ms`. */
  async next(match: string | ((frame: any) => boolean), ms = 3000): Promise<any> {
    const test = typeof match === 'string' ? (frame: any) => frame.type === match : match
    const deadline = Date.now() + ms
    for (;;) {
      const index = this.received.findIndex(test)
      if (index >= 0) return this.received.splice(index, 1)[0]
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) while waiting`)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`nothing matching within ${ms} ms; got ${JSON.stringify(this.received).slice(0, 2000)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Resolves once the server closed the socket. */
  async closedWith(ms = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('the desk socket stayed open')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 20)
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
    const waiting = this.waiters
    this.waiters = []
    for (const wake of waiting) wake()
  }
}
