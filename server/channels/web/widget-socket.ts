import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { Server, WebSocketHandler } from 'bun'
import type { RatingService } from '../../conversations/rating-service.ts'
import type { ReadService } from '../../conversations/read-service.ts'
import type { ConversationService } from '../../conversations/service.ts'
import type { VisitorService } from '../../conversations/visitor-service.ts'
import { clientAddress } from '../../http/client-address.ts'
import { problemResponse } from '../../http/problem.ts'
import { CloseCode } from '../../protocol/close-codes.ts'
import { ClientMessage, FRAME_LIMITS } from '../../protocol/widget-protocol.ts'
import type { EventBus } from '../../events/domain-events.ts'
import type { Logger } from '../../support/logger.ts'
import { describeJsonShapeBreach, type JsonShapeBreach, jsonShapeBreach } from '../../support/json-shape.ts'
import { admitWidget, type TeamPageCheck, teamPageOf, type WidgetAdmission, type WidgetRefusal } from './admit-widget.ts'
import type { SocketData, WidgetSocket } from './socket-data.ts'
import type { SocketHub } from './socket-hub.ts'
import type { FindWebIntegration } from './web-directory.ts'
import { send } from './send.ts'
import type { UploadTokens } from './upload-tokens.ts'
import { type AskEmail, visitorHandlers } from './visitor-handlers.ts'

export const SOCKET_PATH = '/widget/v1/socket'

const checkClientMessage = TypeCompiler.Compile(ClientMessage)
const utf8 = new TextDecoder('utf-8', { fatal: true })

const REFUSAL_CLOSE_CODES: Record<WidgetRefusal, number> = {
  unknown_widget_key: CloseCode.unknownWidgetKey,
  origin_not_allowed: CloseCode.originNotAllowed,
  integration_inactive: CloseCode.integrationInactive,
}

/** Longest client_id an error echoes back (the protocol's own ids are at most 64 characters). */
const ECHOED_CLIENT_ID_LENGTH = 64

/** Bytes a socket may have waiting to be sent before it is closed (Bun's default is 16 MiB). */
export const SEND_BACKLOG_LIMIT = 8 * 1024 * 1024

export interface WidgetSocketDeps {
  /** Outside business hours a handed-off visitor is asked for an e-mail (app.ts decides). */
  askEmail?: AskEmail
  findIntegration: FindWebIntegration
  visitors: VisitorService
  conversations: ConversationService
  ratings: RatingService
  reads: ReadService
  hub: SocketHub
  /** For what the desk shows of a visitor (typing, the page): optional, the widget works without. */
  events?: EventBus
  logger: Logger
  /** Messages per minute per socket, in bursts of a quarter of that; 0 turns the limit off. */
  ratePerMinute: number
  helloTimeoutMs?: number
  /** Right after a welcome is sent: what is live for the visitor but not stored (drafts). */
  onWelcome?: (socket: WidgetSocket) => void
  /** The sockets' upload tokens (each welcome gives one; a closed socket's lasts a grace period). */
  uploads: UploadTokens
  uploadMaxBytes: number
  /** The team's own pages (the console's preview) are admitted where allowed_domains leave Parley out. */
  isTeamPage?: TeamPageCheck
}

/**
 * The widget's socket: checks the widget key, the integration and the page's Origin when it
 * opens, then speaks the protocol of server/protocol/widget-protocol.ts. Raw Bun WebSockets
 * keep an idle visitor down to a few kilobytes.
 */
export function widgetSocket(deps: WidgetSocketDeps) {
  const { findIntegration, hub, logger, helloTimeoutMs = 10_000 } = deps
  const handlers = visitorHandlers(deps)
  const handle = handlers.handle
  const rate = socketRate(deps.ratePerMinute)

  /** At once when the widget key's integration was read lately, else once it is read. */
  function upgrade(request: Request, server: Server<SocketData>): Response | undefined | Promise<Response | undefined> {
    const key = new URL(request.url).searchParams.get('key') ?? ''
    const admission = admitWidget(findIntegration, key, request.headers.get('origin'), teamPageOf(request, deps.isTeamPage))
    return admission instanceof Promise ? admission.then((admitted) => upgradeWith(admitted, request, server)) : upgradeWith(admission, request, server)
  }

  function upgradeWith(admission: WidgetAdmission, request: Request, server: Server<SocketData>): Response | undefined {
    const integration = admission.admitted ? admission.integration : null
    const refusal: SocketData['refusal'] = admission.admitted ? null : { code: REFUSAL_CLOSE_CODES[admission.refusal], reason: admission.reason }
    const data: SocketData = {
      integration,
      refusal,
      page: null,
      userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
      address: clientAddress(request),
      helloed: false,
      visitorKey: '',
      tokenHash: '',
      externalId: null,
      contactId: null,
      conversationId: null,
      pendingDetails: null,
      locale: null,
      helloTimer: null,
      uploadKey: '',
      uploadTimes: null,
      tokens: rate.burst,
      tokensAt: performance.now(),
      strikes: 0,
    }
    if (server.upgrade(request, { data })) return undefined
    return problemResponse({ status: 426, code: 'upgrade_required', detail: 'connect with a WebSocket' }, { upgrade: 'websocket' })
  }

  const socketHandlers: WebSocketHandler<SocketData> = {
    idleTimeout: 120,
    sendPings: true,
    // uWebSockets refuses a bigger frame with 1009 from its header, before buffering it.
    maxPayloadLength: FRAME_LIMITS.maxBytes,
    // Past the limit Bun would drop frames and keep the socket open: a stalled tab would miss
    // messages without knowing. Closed instead, the widget reconnects and its welcome brings
    // the history; the desk reconnects with ?since= and catches up. These options apply to
    // both sockets (one server), so the limit leaves room for a desk's whole catch-up.
    backpressureLimit: SEND_BACKLOG_LIMIT,
    closeOnBackpressureLimit: true,
    open(socket) {
      if (socket.data.refusal) {
        socket.close(socket.data.refusal.code, socket.data.refusal.reason)
        return
      }
      hub.add(socket)
      socket.data.helloTimer = setTimeout(() => {
        if (!socket.data.helloed) socket.close(CloseCode.helloTimeout, 'no hello in time')
      }, helloTimeoutMs)
    },
    message(socket, raw) {
      if (socket.data.refusal) return
      // Every frame costs a token, valid or not, so a flood of bad frames is closed like any other.
      if (!rate.allows(socket)) return
      const text = frameText(raw)
      if (text === null) return protocolError(socket, 'frames must be JSON text in UTF-8')
      const breach = jsonShapeBreach(text, FRAME_LIMITS)
      if (breach) return overShapeLimits(socket, breach)
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        return protocolError(socket, 'frames must be JSON text')
      }
      if (!checkClientMessage.Check(parsed)) return invalid(socket, parsed)
      try {
        handle(socket, parsed)
      } catch (error) {
        logger.error('widget socket error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
        send(socket, { type: 'error', code: 'internal_error', message: 'something went wrong; please retry' })
      }
    },
    close(socket) {
      if (socket.data.helloTimer) clearTimeout(socket.data.helloTimer)
      hub.remove(socket)
      deps.uploads.release(socket)
    },
  }

  return { path: SOCKET_PATH, upgrade, handlers: socketHandlers, say: handlers.say, runningConversationId: handlers.runningConversationId }
}

/** A text frame as received; a binary frame read as UTF-8, or null when it is not. */
function frameText(raw: string | Buffer): string | null {
  if (typeof raw === 'string') return raw
  try {
    return utf8.decode(raw)
  } catch {
    return null
  }
}

/** Over the nesting or member limits: refused unparsed, like a malformed message. */
function overShapeLimits(socket: WidgetSocket, breach: JsonShapeBreach): void {
  const message = describeJsonShapeBreach(breach, 'the frame')
  if (!socket.data.helloed) return protocolError(socket, message)
  send(socket, { type: 'error', code: breach.limit === 'depth' ? 'json_too_deep' : 'json_too_many_members', message })
}

function invalid(socket: WidgetSocket, parsed: unknown): void {
  if (!socket.data.helloed) return protocolError(socket, 'the first message must be a valid hello')
  const first = checkClientMessage.Errors(parsed).First()
  const echoed = typeof parsed === 'object' && parsed && 'client_id' in parsed ? parsed.client_id : undefined
  const clientId = typeof echoed === 'string' && echoed.length <= ECHOED_CLIENT_ID_LENGTH ? echoed : undefined
  send(socket, {
    type: 'error',
    code: 'invalid_message',
    message: first ? `${first.path || 'message'}: ${first.message}` : 'not a message of this protocol',
    ...(clientId ? { client_id: clientId } : {}),
  })
}

function protocolError(socket: WidgetSocket, reason: string): void {
  socket.close(CloseCode.protocolError, reason)
}

/**
 * A token bucket per socket: bursts of a quarter of the minute's allowance, then a steady
 * rate; each refused message gets an error, and persistent flooding closes the socket.
 */
function socketRate(perMinute: number) {
  const burst = Math.max(10, Math.floor(perMinute / 4))
  const perMs = perMinute / 60_000
  const strikesToClose = 20
  return {
    burst,
    allows(socket: WidgetSocket): boolean {
      if (perMinute <= 0) return true
      const data = socket.data
      const at = performance.now()
      data.tokens = Math.min(burst, data.tokens + (at - data.tokensAt) * perMs)
      data.tokensAt = at
      if (data.tokens >= 1) {
        data.tokens -= 1
        return true
      }
      if (++data.strikes >= strikesToClose) socket.close(CloseCode.rateLimited, 'too many messages')
      else send(socket, { type: 'error', code: 'rate_limited', message: 'slow down: too many messages' })
      return false
    },
  }
}
