import type { ServerWebSocket } from 'bun'
import type { ContactDetails } from '../../conversations/model.ts'
import type { WebIntegration } from './web-directory.ts'

/**
 * Everything the server keeps per widget socket. Kept small on purpose: thousands of idle
 * visitors each hold one of these.
 */
export interface SocketData {
  /** Null only on a refused socket, which is closed as soon as it opens. */
  integration: WebIntegration | null
  refusal: { code: number; reason: string } | null
  page: string | null
  /** The browser's User-Agent at connect (cut short), for the desk's context panel. */
  userAgent: string | null
  /** The client's IP address at connect (http/client-address.ts), for the same panel. */
  address: string
  helloed: boolean
  /** Key under which the hub finds this visitor's sockets (see SocketHub). */
  visitorKey: string
  tokenHash: string
  externalId: string | null
  contactId: string | null
  conversationId: string | null
  /** The browser's language from the hello (checked by its schema): the contact's `locale`. */
  locale: string | null
  /** setContactDetails() values waiting for the visitor's first message. */
  pendingDetails: ContactDetails | null
  helloTimer: ReturnType<typeof setTimeout> | null
  /** The sha256 of this socket's upload token (upload-tokens.ts); empty before its welcome. */
  uploadKey: string
  /** When this socket's last uploads started (performance.now()), for their rate. */
  uploadTimes: number[] | null
  tokens: number
  tokensAt: number
  strikes: number
}

export type WidgetSocket = ServerWebSocket<SocketData>
