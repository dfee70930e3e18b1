import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'

/** What arrived from the server on a raw socket: its text frames, and how it closed. */
export interface RawSocketLog {
  texts: string[]
  /** Frames of other kinds than text, close, ping and pong (the server sends none). */
  others: number[]
  /** The close frame's code and reason; null until one arrives. */
  close: { code: number; reason: string } | null
  /** The TCP connection ended. */
  ended: boolean
}

export const Opcode = { text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const

/**
 * A WebSocket client that writes frames byte by byte, for what a browser never sends: text
 * frames that are not UTF-8, binary frames, frames announcing any length. It speaks just enough
 * of RFC 6455 to open a socket, send masked frames and read the server's answers.
 */
export class RawSocketClient {
  readonly log: RawSocketLog = { texts: [], others: [], close: null, ended: false }
  private buffered = Buffer.alloc(0)
  private waiters: (() => void)[] = []

  private constructor(private readonly socket: Socket) {}

  /** Opens `ws://host:port/path` (the path with its query) and resolves once upgraded, or with the refusal. */
  static async open(url: string, origin?: string): Promise<RawSocketClient> {
    const { hostname, port, pathname, search } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    const client = new RawSocketClient(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.once('connect', () => resolve())
    })
    const key = randomBytes(16).toString('base64')
    socket.write(
      [
        `GET ${pathname}${search} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${key}`,
        'Sec-WebSocket-Version: 13',
        ...(origin ? [`Origin: ${origin}`] : []),
        '',
        '',
      ].join('\r\n'),
    )
    await new Promise<void>((resolve, reject) => {
      let head = Buffer.alloc(0)
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end < 0) return
        socket.off('data', onData)
        const status = head.subarray(0, head.indexOf('\r\n')).toString()
        if (!status.includes(' 101 ')) return reject(new Error(`not upgraded: ${status}`))
        client.listen(head.subarray(end + 4))
        resolve()
      }
      socket.on('data', onData)
    })
    return client
  }

  /** Sends one masked frame; `fin` false starts a fragmented message. */
  sendFrame(opcode: number, payload: Uint8Array | string, fin = true): void {
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload)
    const mask = randomBytes(4)
    const length = body.length
    const header =
      length < 126
        ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | length])
        : length < 65_536
          ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, length >> 8, length & 0xff])
          : Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 127]), bigEndian64(length)])
    const masked = Buffer.alloc(length)
    for (let index = 0; index < length; index++) masked[index] = body[index]! ^ mask[index % 4]!
    if (!this.socket.destroyed) this.socket.write(Buffer.concat([header, mask, masked]))
  }

  sendText(text: string | Uint8Array): void {
    this.sendFrame(Opcode.text, text)
  }

  /** Waits until `done` holds for the log, or `ms` passes; says whether it held. */
  async until(done: (log: RawSocketLog) => boolean, ms = 3000): Promise<boolean> {
    const deadline = Date.now() + ms
    while (!done(this.log)) {
      const left = deadline - Date.now()
      if (left <= 0) return false
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100))
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    return true
  }

  /** Waits until nothing has arrived for `ms`. */
  async quiet(ms: number): Promise<void> {
    for (;;) {
      const seen = this.log.texts.length
      await Bun.sleep(ms)
      if (this.log.texts.length === seen) return
    }
  }

  /** The text frames received so far, parsed. */
  messages(): unknown[] {
    return this.log.texts.map((text) => JSON.parse(text))
  }

  destroy(): void {
    this.socket.destroy()
  }

  /** Stops reading, as a stalled phone does: the server's frames wait in the kernel, then in the server. */
  pause(): void {
    this.socket.pause()
  }

  resume(): void {
    this.socket.resume()
  }

  private listen(initial: Buffer): void {
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk))
    this.socket.on('close', () => {
      this.log.ended = true
      this.wake()
    })
    this.socket.on('error', () => {})
    if (initial.length > 0) this.receive(initial)
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk])
    for (;;) {
      const frame = readFrame(this.buffered)
      if (!frame) break
      this.buffered = this.buffered.subarray(frame.size)
      if (frame.opcode === Opcode.text) this.log.texts.push(frame.payload.toString('utf8'))
      else if (frame.opcode === Opcode.close) {
        const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005
        this.log.close = { code, reason: frame.payload.subarray(2).toString('utf8') }
      } else if (frame.opcode === Opcode.ping) this.sendFrame(Opcode.pong, frame.payload)
      else if (frame.opcode !== Opcode.pong) this.log.others.push(frame.opcode)
    }
    this.wake()
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter()
  }
}

function bigEndian64(value: number): Buffer {
  const buffer = Buffer.alloc(8)
  buffer.writeBigUInt64BE(BigInt(value))
  return buffer
}

/** One unmasked server frame at the start of `buffer`, or null while it is incomplete. */
function readFrame(buffer: Buffer): { opcode: number; payload: Buffer; size: number } | null {
  if (buffer.length < 2) return null
  const opcode = buffer[0]! & 0x0f
  let length = buffer[1]! & 0x7f
  let offset = 2
  if (length === 126) {
    if (buffer.length < 4) return null
    length = buffer.readUInt16BE(2)
    offset = 4
  } else if (length === 127) {
    if (buffer.length < 10) return null
    length = Number(buffer.readBigUInt64BE(2))
    offset = 10
  }
  if (buffer.length < offset + length) return null
  return { opcode, payload: buffer.subarray(offset, offset + length), size: offset + length }
}
