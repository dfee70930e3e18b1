import { type AttachmentService, attachmentTooLarge } from '../../attachments/service.ts'
import type { VisitorResult } from '../../conversations/service.ts'
import { ApiError } from '../../http/api-error.ts'
import type { ChatMessage } from '../../protocol/widget-protocol.ts'
import { admitWidget, type IsTeamPage, REFUSAL_STATUSES } from './admit-widget.ts'
import type { WidgetSocket } from './socket-data.ts'
import type { UploadTokens } from './upload-tokens.ts'
import type { FindWebIntegration } from './web-directory.ts'

/** What an upload request says about who sends it, read from its head before its body. */
export interface UploadCredentials {
  /** The page's Origin header (null when absent). */
  origin: string | null
  /** The widget key (`?key=`). */
  widgetKey: string
  /** The Authorization header: `Bearer <upload_token>`. */
  authorization: string | null
  /** Whether the page is the team's own (the console's preview), for a widget whose allowed_domains leave Parley out. */
  isTeamPage?: IsTeamPage
}

export interface UploadInput {
  clientId: string | null
  filename: string | null
  bytes: Uint8Array
}

/** Files one socket may send a minute: enough for a visitor dropping a handful of photos. */
export const UPLOADS_PER_MINUTE = 10

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/
/** A name is made safe (and cut to 200) when stored; a longer one is cut here first. */
const FILENAME_READ_LENGTH = 1000

interface Deps {
  findIntegration: FindWebIntegration
  tokens: UploadTokens
  attachments: AttachmentService
  /** The visitor handlers' own steps: the file becomes the visitor's message as a text would. */
  say: (socket: WidgetSocket, clientId: string, content: Extract<ChatMessage['content'], { kind: 'media' }>) => VisitorResult
  runningConversationId: (socket: WidgetSocket) => string | null
  uploadsPerMinute?: number
  monotonicMs?: () => number
}

export type WebUploads = ReturnType<typeof webUploads>

/**
 * The widget's file uploads: the same Origin rule as the socket (so CORS is answered only to
 * the integration's allowed pages), the socket's upload token for who is sending, then the
 * attachment is checked and stored with the visitor's media message, which reaches the socket
 * (the echo), the desk and the engine like any message of theirs.
 */
export function webUploads({ findIntegration, tokens, attachments, say, runningConversationId, uploadsPerMinute = UPLOADS_PER_MINUTE, monotonicMs = () => performance.now() }: Deps) {
  /** An allowed page may read every answer, refusals included, so the widget can say why. */
  const corsOf = (origin: string | null): Record<string, string> => (origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { vary: 'Origin' })

  /** The page may use this widget; its CORS headers. Throws the configuration route's refusals. */
  async function admitPage(credentials: Pick<UploadCredentials, 'origin' | 'widgetKey' | 'isTeamPage'>) {
    const admission = await admitWidget(findIntegration, credentials.widgetKey, credentials.origin, credentials.isTeamPage)
    if (!admission.admitted) {
      const { status, code } = REFUSAL_STATUSES[admission.refusal]
      // No CORS header: a page that may not use the widget does not read why.
      throw new ApiError(status, code, admission.reason, undefined, { vary: 'Origin' })
    }
    return { integration: admission.integration, cors: corsOf(credentials.origin) }
  }

  /** Who sends: the socket the token stands for, of this widget; refused before the body is read. */
  async function check(credentials: UploadCredentials): Promise<{ socket: WidgetSocket; cors: Record<string, string> }> {
    const { integration, cors } = await admitPage(credentials)
    const token = credentials.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? ''
    const socket = tokens.find(token)
    if (!socket || socket.data.integration?.integrationId !== integration.integrationId) {
      throw new ApiError(401, 'upload_token_invalid', 'send the upload_token of your socket\'s welcome as Authorization: Bearer <token>; it lasts a minute past the socket', undefined, { ...cors, 'www-authenticate': 'Bearer' })
    }
    return { socket, cors }
  }

  function withinRate(socket: WidgetSocket): boolean {
    const at = monotonicMs()
    const recent = (socket.data.uploadTimes ?? []).filter((time) => at - time < 60_000)
    socket.data.uploadTimes = recent
    if (recent.length >= uploadsPerMinute) return false
    recent.push(at)
    return true
  }

  return {
    check,

    /**
     * The 413 for a body over the limit, read by the page like every other answer; with the
     * size its Content-Length declares, so it reads as the widget's own check would.
     */
    tooLarge: (credentials: UploadCredentials, declaredBytes?: number) => attachmentTooLarge(attachments.maxBytes, declaredBytes, corsOf(credentials.origin)),

    /** The answer to a CORS preflight: allowed pages may POST a file with the token. */
    async preflight(credentials: Pick<UploadCredentials, 'origin' | 'widgetKey' | 'isTeamPage'>): Promise<Record<string, string>> {
      const { cors } = await admitPage(credentials)
      return {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
      }
    },

    /**
     * Stores the file and the visitor's media message (a resend with the same client id answers
     * the first copy and stores nothing). Answers the message and the status and headers to send.
     */
    async receive(credentials: UploadCredentials, input: UploadInput): Promise<{ status: 200 | 201; message: ChatMessage; headers: Record<string, string> }> {
      const { socket, cors } = await check(credentials)
      const refuse = (status: number, code: string, detail: string, field?: string) =>
        new ApiError(status, code, detail, field ? [{ path: `/${field}`, message: detail }] : undefined, cors)
      if (!input.clientId || !CLIENT_ID.test(input.clientId)) {
        throw refuse(422, 'validation_failed', 'client_id must be 1 to 64 letters, digits, _ or -', 'client_id')
      }
      if (!withinRate(socket)) {
        throw new ApiError(429, 'rate_limited', `at most ${uploadsPerMinute} files a minute; retry in a minute`, undefined, { ...cors, 'retry-after': '60' })
      }
      const integration = socket.data.integration!
      let prepared: ReturnType<AttachmentService['prepare']>
      try {
        prepared = attachments.prepare({
          workspaceId: integration.workspaceId,
          chatbotId: integration.chatbotId,
          conversationId: runningConversationId(socket),
          role: 'visitor',
          filename: (input.filename ?? '').slice(0, FILENAME_READ_LENGTH),
          bytes: input.bytes,
        })
      } catch (error) {
        if (error instanceof ApiError) throw new ApiError(error.status, error.code, error.detail, error.errors, { ...cors, ...error.headers })
        throw error
      }
      const result = say(socket, input.clientId, prepared.content)
      if (!result.duplicate) prepared.write(result.message.conversation_id)
      return { status: result.duplicate ? 200 : 201, message: result.message, headers: cors }
    },
  }
}
