import type { Server, ServerWebSocket, WebSocketHandler } from 'bun'
import { ApiError } from '../http/api-error.ts'
import { problemResponse } from '../http/problem.ts'
import type { Caller } from '../people/session-auth.ts'
import type { SessionService } from '../people/sessions.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import type { DeskFeed, FeedEntry } from './feed.ts'
import type { PassingEvent } from './feed-events.ts'
import type { DeskService } from './service.ts'
import type { DeskStore } from './store.ts'

export const DESK_SOCKET_PATH = '/app/socket'

/** Close codes of the desk socket (4000–4999 are the application's). */
export const DeskCloseCode = { signedOut: 4401, shuttingDown: 1001 } as const

/** How often an open desk's session is checked again (sign-out closes it at once; this catches the rest). */
const SESSION_CHECK_MS = 30_000
const MAX_CLIENT_FRAME = 4096

export interface DeskSocketData {
  desk: true
  caller: Caller & { person: NonNullable<Caller['person']> }
  person: { id: string; display_name: string }
  /** The newest feed number this desk has been sent. */
  lastSent: number
  since: number | null
  viewing: string | null
}

type DeskWebSocket = ServerWebSocket<DeskSocketData>

interface Deps {
  /** The session cookie's person (server/people/session-auth.ts); throws for an ended session. */
  callerOf: (request: Request) => Caller | null
  sessions: SessionService
  publicOrigin: string
  feed: DeskFeed
  desk: DeskService
  store: DeskStore
  events: EventBus
  logger: Logger
}

export type DeskSocket = ReturnType<typeof deskSocket>

/**
 * One WebSocket per open desk, opened with the session cookie from Parley's own origin. It
 * carries the workspace's numbered feed (a reconnect sends `?since=N`, the last number seen,
 * and gets what it missed, or `reload`), typing and presence. Signing out closes it.
 */
export function deskSocket({ callerOf, sessions, publicOrigin, feed, desk, store, events, logger }: Deps) {
  const byWorkspace = new Map<string, Set<DeskWebSocket>>()
  const send = (socket: DeskWebSocket, frame: unknown): void => void socket.send(JSON.stringify(frame))

  /** `text`: the entry's JSON text when the feed has it (a live entry: one text for every desk). */
  function sendEntry(socket: DeskWebSocket, entry: FeedEntry, text?: string): void {
    if (entry.seq <= socket.data.lastSent) return
    socket.data.lastSent = entry.seq
    if (text === undefined) send(socket, entry)
    else socket.send(text)
  }

  function pass(workspaceId: string, event: PassingEvent): void {
    for (const socket of byWorkspace.get(workspaceId) ?? []) send(socket, event)
  }

  function presenceOf(workspaceId: string, conversationId: string): PassingEvent {
    const people = new Map<string, { id: string; display_name: string }>()
    for (const socket of byWorkspace.get(workspaceId) ?? []) {
      if (socket.data.viewing === conversationId) people.set(socket.data.person.id, socket.data.person)
    }
    return { type: 'presence', conversation_id: conversationId, people: [...people.values()] }
  }

  function view(socket: DeskWebSocket, conversationId: string | null): void {
    const { workspaceId } = socket.data.caller
    const before = socket.data.viewing
    if (conversationId !== null && !store.thread(workspaceId, conversationId)) {
      return send(socket, { type: 'error', code: 'not_found', message: 'conversation not found' })
    }
    socket.data.viewing = conversationId
    if (before && before !== conversationId) pass(workspaceId, presenceOf(workspaceId, before))
    if (conversationId) pass(workspaceId, presenceOf(workspaceId, conversationId))
  }

  function closeWhere(match: (data: DeskSocketData) => boolean): void {
    for (const sockets of byWorkspace.values()) {
      for (const socket of sockets) if (match(socket.data)) socket.close(DeskCloseCode.signedOut, 'signed out')
    }
  }

  const unsubscribe = [
    feed.onEntry((workspaceId, entry, text) => {
      for (const socket of byWorkspace.get(workspaceId) ?? []) sendEntry(socket, entry, text)
    }),
    events.on('people.sessions_ended', ({ sessionId, userId }) =>
      closeWhere((data) => data.caller.person.sessionId === sessionId || data.caller.person.id === userId),
    ),
  ]
  // The sessions' store answers asynchronously: each open socket's session is asked about, then the ended ones' sockets close.
  const closeEnded = async () => {
    const ids = new Set([...byWorkspace.values()].flatMap((sockets) => [...sockets].map((socket) => socket.data.caller.person.sessionId)))
    const ended = new Set<string>()
    for (const id of ids) if (!(await sessions.isLive(id))) ended.add(id)
    closeWhere((data) => ended.has(data.caller.person.sessionId))
  }
  const sessionCheck = setInterval(() => void closeEnded().catch((error) => logger.error('desk session check failed', { error: String(error) })), SESSION_CHECK_MS)
  sessionCheck.unref?.()

  function upgrade(request: Request, server: Server<DeskSocketData>): Response | undefined {
    const refuse = (status: number, code: string, detail: string) => problemResponse({ status, code, detail })
    if (request.headers.get('origin') !== publicOrigin) {
      return refuse(403, 'origin_refused', `the desk socket must be opened from ${publicOrigin} (the Origin header)`)
    }
    let caller: Caller | null
    try {
      caller = request.headers.has('authorization') ? null : callerOf(request)
    } catch (error) {
      if (error instanceof ApiError) return refuse(error.status, error.code, error.detail)
      throw error
    }
    if (!caller?.person) return refuse(401, 'unauthorized', 'open the desk socket signed in (the session cookie)')
    const spelled = new URL(request.url).searchParams.get('since')
    if (spelled !== null && !/^(0|[1-9][0-9]{0,14})$/.test(spelled)) {
      return refuse(422, 'validation_failed', 'since must be the last seq this desk saw (a whole number)')
    }
    const person = store.activeUser(caller.workspaceId, caller.person.id)
    if (!person) return refuse(401, 'unauthorized', 'open the desk socket signed in (the session cookie)')
    const data: DeskSocketData = {
      desk: true,
      caller: caller as DeskSocketData['caller'],
      person: { id: person.id, display_name: person.display_name },
      lastSent: 0,
      since: spelled === null ? null : Number(spelled),
      viewing: null,
    }
    if (server.upgrade(request, { data })) return undefined
    return problemResponse({ status: 426, code: 'upgrade_required', detail: 'connect with a WebSocket' }, { upgrade: 'websocket' })
  }

  const handlers: WebSocketHandler<DeskSocketData> = {
    open(socket) {
      const { workspaceId } = socket.data.caller
      const sockets = byWorkspace.get(workspaceId) ?? new Set()
      sockets.add(socket)
      byWorkspace.set(workspaceId, sockets)
      const head = feed.head(workspaceId)
      const since = socket.data.since
      if (since === null) {
        socket.data.lastSent = head
      } else {
        const caught = feed.catchUp(workspaceId, since)
        if ('reload' in caught) {
          socket.data.lastSent = head
          send(socket, { type: 'reload', seq: head })
        } else {
          socket.data.lastSent = since
          for (const entry of caught.entries) sendEntry(socket, entry)
        }
      }
      send(socket, { type: 'ready', seq: socket.data.lastSent, person: socket.data.person })
      // One frame per conversation someone views, however many people view it.
      const viewed = new Set<string>()
      for (const other of sockets) if (other.data.viewing) viewed.add(other.data.viewing)
      for (const conversationId of viewed) send(socket, presenceOf(workspaceId, conversationId))
    },
    message(socket, raw) {
      if (typeof raw !== 'string' || raw.length > MAX_CLIENT_FRAME) return send(socket, { type: 'error', code: 'bad_frame', message: `frames are JSON text of at most ${MAX_CLIENT_FRAME} characters` })
      let frame: { type?: unknown; conversation_id?: unknown; active?: unknown }
      try {
        frame = JSON.parse(raw)
      } catch {
        return send(socket, { type: 'error', code: 'bad_frame', message: 'frames are JSON objects' })
      }
      if (typeof frame !== 'object' || frame === null) return send(socket, { type: 'error', code: 'bad_frame', message: 'frames are JSON objects' })
      switch (frame.type) {
        case 'ping':
          return send(socket, { type: 'pong', seq: socket.data.lastSent })
        case 'viewing':
          if (frame.conversation_id !== null && typeof frame.conversation_id !== 'string') break
          return view(socket, frame.conversation_id)
        case 'typing':
          if (typeof frame.conversation_id !== 'string' || typeof frame.active !== 'boolean') break
          try {
            desk.typing(socket.data.caller, frame.conversation_id, frame.active)
          } catch (error) {
            if (error instanceof ApiError) return send(socket, { type: 'error', code: error.code, message: error.detail })
            throw error
          }
          return
      }
      send(socket, { type: 'error', code: 'bad_frame', message: 'expected {type: "ping"}, {type: "viewing", conversation_id} or {type: "typing", conversation_id, active}' })
    },
    close(socket) {
      const { workspaceId } = socket.data.caller
      byWorkspace.get(workspaceId)?.delete(socket)
      if (socket.data.viewing) {
        const viewing = socket.data.viewing
        socket.data.viewing = null
        pass(workspaceId, presenceOf(workspaceId, viewing))
      }
    },
  }

  return {
    path: DESK_SOCKET_PATH,
    upgrade,
    handlers,
    pass,
    /** Desk sockets open now (the metrics show it). */
    openCount(): number {
      let count = 0
      for (const sockets of byWorkspace.values()) count += sockets.size
      return count
    },
    /** Who is looking at a conversation now. */
    viewers: (workspaceId: string, conversationId: string) => (presenceOf(workspaceId, conversationId) as Extract<PassingEvent, { type: 'presence' }>).people,
    close() {
      clearInterval(sessionCheck)
      for (const off of unsubscribe) off()
      for (const sockets of byWorkspace.values()) for (const socket of sockets) socket.close(DeskCloseCode.shuttingDown, 'server shutting down')
      logger.debug('desk sockets closed')
    },
  }
}
