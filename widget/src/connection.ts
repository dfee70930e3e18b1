import { FINAL_CLOSE_CODES } from '../../server/protocol/close-codes.ts'
import type { ClientMessage, ServerMessage } from '../../server/protocol/widget-protocol.ts'
import { backoffDelay } from './backoff.ts'

export { backoffDelay }

/**
 * The widget's socket: hello on every open, exponential backoff with jitter between tries,
 * visitor messages kept until their echo arrives and resent (same client_id) after a
 * reconnect, a heartbeat to notice dead links, and no retry after a final close code.
 */

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'refused'

const PING_EVERY_MS = 25_000
/** No frame at all for this long (two missed pongs) means the link is dead. */
const SILENCE_LIMIT_MS = 60_000

/** `http://host/` + `/widget/v1/socket?key=...` → `ws://host/widget/v1/socket?key=...`. */
export function socketUrl(serverUrl: string, socketPath: string): string {
  const url = new URL(socketPath, serverUrl)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.href
}

export interface ConnectionOptions {
  url: string
  /** Built afresh for every (re)connect: identity, contact details and `after` may have changed. */
  hello: () => ClientMessage
  onMessage: (message: ServerMessage) => void
  onState: (state: ConnectionState, closed?: { code: number; reason: string }) => void
  WebSocket?: typeof WebSocket
  random?: () => number
}

type WithClientId = Extract<ClientMessage, { client_id: string }>

export function createConnection(options: ConnectionOptions) {
  const Socket = options.WebSocket ?? WebSocket
  let socket: WebSocket | undefined
  let state: ConnectionState = 'idle'
  let wanted = false
  let welcomed = false
  let attempt = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let lastFrameAt = 0
  /** Visitor messages not yet echoed by the server, in the order they were written. */
  const unconfirmed = new Map<string, WithClientId>()

  const setState = (next: ConnectionState, closed?: { code: number; reason: string }) => {
    if (next === state) return
    state = next
    options.onState(next, closed)
  }

  const open = () => {
    clearTimeout(retryTimer)
    retryTimer = undefined
    welcomed = false
    setState(attempt === 0 ? 'connecting' : 'reconnecting')
    const current = new Socket(options.url)
    socket = current
    current.onopen = () => {
      lastFrameAt = Date.now()
      current.send(JSON.stringify(options.hello()))
    }
    current.onmessage = (event) => {
      if (socket !== current) return
      lastFrameAt = Date.now()
      let message: ServerMessage
      try {
        message = JSON.parse(String(event.data)) as ServerMessage
      } catch {
        return
      }
      receive(message)
    }
    current.onclose = (event) => {
      if (socket !== current) return
      socket = undefined
      stopHeartbeat()
      welcomed = false
      if (FINAL_CLOSE_CODES.includes(event.code)) {
        wanted = false
        setState('refused', { code: event.code, reason: event.reason })
        return
      }
      if (!wanted) return setState('idle')
      setState('reconnecting', { code: event.code, reason: event.reason })
      retryTimer = setTimeout(open, backoffDelay(attempt++, options.random))
    }
  }

  const receive = (message: ServerMessage) => {
    if (message.type === 'welcome') {
      welcomed = true
      attempt = 0
      setState('open')
      startHeartbeat()
      options.onMessage(message)
      for (const pending of unconfirmed.values()) transmit(pending)
      return
    }
    if (message.type === 'message' && message.message.client_id) unconfirmed.delete(message.message.client_id)
    if (message.type === 'error' && message.client_id) unconfirmed.delete(message.client_id)
    options.onMessage(message)
  }

  const transmit = (message: ClientMessage): boolean => {
    if (!socket || !welcomed || socket.readyState !== 1) return false
    socket.send(JSON.stringify(message))
    return true
  }

  const startHeartbeat = () => {
    stopHeartbeat()
    heartbeat = setInterval(() => {
      if (Date.now() - lastFrameAt > SILENCE_LIMIT_MS) socket?.close()
      else transmit({ type: 'ping' })
    }, PING_EVERY_MS)
  }
  const stopHeartbeat = () => {
    clearInterval(heartbeat)
    heartbeat = undefined
  }

  return {
    get state() {
      return state
    },
    /** Connects, or resumes after disconnect(); does nothing once refused with a final code. */
    connect() {
      if (state === 'refused') return
      wanted = true
      if (!socket && !retryTimer) open()
    },
    /** Closes on purpose (another page, a new identity): no retry until connect(). */
    disconnect() {
      wanted = false
      clearTimeout(retryTimer)
      retryTimer = undefined
      attempt = 0
      stopHeartbeat()
      const current = socket
      socket = undefined
      welcomed = false
      current?.close(1000)
      if (state !== 'refused') setState('idle')
    },
    /** The browser says the network is back: try now rather than at the end of the backoff. */
    retryNow() {
      if (wanted && !socket && retryTimer) open()
    },
    /**
     * Sends now when connected. Visitor messages (with a client_id) are also kept until
     * echoed and resent after a reconnect; anything else is dropped while offline.
     */
    send(message: ClientMessage): boolean {
      if ('client_id' in message) unconfirmed.set(message.client_id, message)
      return transmit(message)
    },
    /** Forgets unconfirmed messages (a new identity is a different visitor). */
    forgetUnconfirmed() {
      unconfirmed.clear()
    },
  }
}

export type Connection = ReturnType<typeof createConnection>
