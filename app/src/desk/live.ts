import { type Accessor, createSignal } from 'solid-js'
import type { ChatMessage, DeskEvent, Note, Person } from '../types.ts'

export type LiveState = 'connecting' | 'open' | 'reconnecting'

/** Numbered events of the workspace's feed, kept by the server for catch-up. */
export type FeedEntry = { seq: number } & (
  | { type: 'message'; conversation_id: string; chatbot_id: string; message: ChatMessage }
  | { type: 'conversation'; conversation_id: string; chatbot_id: string; change: 'opened' | 'status' | 'assigned' | 'labels'; status: 'bot' | 'handoff' | 'closed'; assignee_id: string | null }
  | { type: 'timeline'; conversation_id: string; event: DeskEvent }
  | { type: 'note'; conversation_id: string; note: Note }
)

/** Sent as they happen, never replayed. */
export type PassingEvent =
  | { type: 'typing'; conversation_id: string; from: 'visitor' | 'agent' | 'bot'; person: Person | null; active: boolean }
  | { type: 'presence'; conversation_id: string; people: Person[] }

export type LiveEvent = FeedEntry | PassingEvent | { type: 'reload' }

export interface Live {
  state: Accessor<LiveState>
  /** Every event, in order; `reload` means: fetch everything shown again. */
  listen(handler: (event: LiveEvent) => void): () => void
  /** Tells the other desks who looks at which conversation (sent again after a reconnect). */
  viewing(conversationId: string | null): void
  typing(conversationId: string, active: boolean): void
  close(): void
}

const PING_MS = 25_000
const RETRY_MS = [250, 500, 1_000, 2_000, 4_000]

/**
 * The one desk socket (/app/socket, signed in by the session cookie). Every numbered event
 * moves `seq`; a reconnect asks for what came after it (`?since=`), so nothing is missed and,
 * with `seq` checked, nothing applied twice. Past what the server keeps it says `reload`.
 * While it is down the desk shows "reconnecting" and tries again, backing off to 4 s.
 */
export function live(onSignedOut: () => void): Live {
  const [state, setState] = createSignal<LiveState>('connecting')
  const handlers = new Set<(event: LiveEvent) => void>()
  let seq: number | null = null
  let socket: WebSocket | null = null
  let closed = false
  let attempt = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  let ping: ReturnType<typeof setInterval> | undefined
  let viewingId: string | null = null

  const emit = (event: LiveEvent) => {
    for (const handler of handlers) handler(event)
  }
  const send = (frame: unknown) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame))
  }

  const connect = () => {
    const url = new URL('/app/socket', window.location.href)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    if (seq !== null) url.searchParams.set('since', String(seq))
    const current = new WebSocket(url)
    socket = current
    current.onmessage = (message) => {
      let frame: { type?: string; seq?: number }
      try {
        frame = JSON.parse(String(message.data))
      } catch {
        return
      }
      if (frame.type === 'ready') {
        const reconnected = seq !== null
        seq = frame.seq ?? seq
        attempt = 0
        setState('open')
        if (viewingId) send({ type: 'viewing', conversation_id: viewingId })
        // A first connection after the screens loaded: anything between is fetched again.
        if (!reconnected) emit({ type: 'reload' })
        return
      }
      if (frame.type === 'reload') {
        seq = frame.seq ?? seq
        emit({ type: 'reload' })
        return
      }
      if (typeof frame.seq === 'number') {
        if (seq !== null && frame.seq <= seq) return
        seq = frame.seq
        emit(frame as FeedEntry)
        return
      }
      if (frame.type === 'typing' || frame.type === 'presence') emit(frame as PassingEvent)
    }
    current.onclose = (event) => {
      if (socket !== current) return
      socket = null
      clearInterval(ping)
      if (closed) return
      if (event.code === 4401) {
        closed = true
        onSignedOut()
        return
      }
      setState('reconnecting')
      retry = setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)])
    }
    clearInterval(ping)
    ping = setInterval(() => send({ type: 'ping' }), PING_MS)
  }
  connect()
  // A socket can outlive the network without noticing; the browser's own word is quicker.
  const wentOffline = () => socket?.close(4000, 'offline')
  const cameOnline = () => {
    if (closed || socket) return
    clearTimeout(retry)
    attempt = 0
    connect()
  }
  window.addEventListener('offline', wentOffline)
  window.addEventListener('online', cameOnline)

  return {
    state,
    listen(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    viewing(conversationId) {
      viewingId = conversationId
      send({ type: 'viewing', conversation_id: conversationId })
    },
    typing(conversationId, active) {
      send({ type: 'typing', conversation_id: conversationId, active })
    },
    close() {
      closed = true
      window.removeEventListener('offline', wentOffline)
      window.removeEventListener('online', cameOnline)
      clearTimeout(retry)
      clearInterval(ping)
      socket?.close(1000)
      handlers.clear()
    },
  }
}
