/**
 * A real WebSocket for tests that queues what the server sends, so a test can take the next
 * frame it is waiting for (in any order), and records how the socket closed. The widget's and
 * the desk's test clients are this with their own frame types and helpers.
 */
export class QueuedSocket<Frame> {
  readonly received: Frame[] = []
  closed: { code: number; reason: string } | null = null
  private waiters: (() => void)[] = []

  protected constructor(protected readonly socket: WebSocket) {
    socket.onmessage = (event) => {
      this.received.push(JSON.parse(String(event.data)) as Frame)
      this.wake()
    }
    socket.onclose = (event) => {
      this.closed = { code: event.code, reason: event.reason }
      this.wake()
    }
  }

  /** Resolves once the socket is open, or was refused or closed. */
  protected static settled(socket: WebSocket): Promise<void> {
    return new Promise<void>((resolve) => {
      for (const event of ['open', 'close', 'error']) socket.addEventListener(event, () => resolve(), { once: true })
    })
  }

  /** The first queued frame that passes `test`, taken from the queue, waiting up to `ms`. */
  protected async take(test: (frame: Frame) => boolean, what: string, ms: number): Promise<Frame> {
    const deadline = Date.now() + ms
    for (;;) {
      const index = this.received.findIndex(test)
      if (index >= 0) return this.received.splice(index, 1)[0] as Frame
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) while waiting for ${what}`)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms; got ${JSON.stringify(this.received).slice(0, 2000)}`)
      await this.wakeOrAfter(left)
    }
  }

  /** Resolves once the server closed the socket. */
  async closedWith(ms = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('the socket stayed open')
      await this.wakeOrAfter(50)
    }
    return this.closed
  }

  close(): void {
    this.socket.close()
  }

  private wakeOrAfter(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.waiters.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter()
  }
}
