import { QueuedSocket } from '../../support/queued-socket.ts'

/**
 * A real desk socket for tests: opened with a session cookie and an Origin, it queues what
 * the server sends so a test can wait for the next frame of a kind, and records how it closed.
 */
export class DeskClient extends QueuedSocket<any> {
  /** Opens the socket; resolves once it is open or was refused. */
  static async connect(url: string, headers: Record<string, string>): Promise<DeskClient> {
    const client = new DeskClient(new WebSocket(url, { headers } as unknown as string[]))
    await QueuedSocket.settled(client.socket)
    return client
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The next frame matching, taken from the queue, waiting up to `ms`. */
  next(match: string | ((frame: any) => boolean), ms = 3000): Promise<any> {
    return this.take(typeof match === 'string' ? (frame) => frame.type === match : match, typeof match === 'string' ? match : 'frame matching', ms)
  }
}
