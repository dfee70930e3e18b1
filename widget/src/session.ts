import { batch, createSignal } from 'solid-js'
import type { ChatMessage, ClientMessage, Content, ConversationRating, ConversationStatus, ReadMark, ServerMessage } from '../../server/protocol/widget-protocol.ts'
import type { ProfileListener, VisitorProfile } from './api.ts'
import { type ConnectionState, createConnection } from './connection.ts'
import type { ContactDetails } from './contact-details.ts'
import { applyDraftFrame, type Draft, withoutDraft } from './drafts.ts'
import { countUnread, mergeMessages, newClientId } from './messages.ts'
import type { KeyValueStore } from './storage.ts'
import { type RatingRefusal, RATING_REFUSALS } from '../../server/protocol/rating-refusals.ts'
import { fileSizeText } from '../../server/protocol/file-size-text.ts'
import { UPLOAD_TYPES } from '../../server/protocol/upload-rules.ts'
import type { TextKey } from '../../server/protocol/widget-texts/en.ts'
import { fillText } from './fill-text.ts'
import { ENGLISH, type Speech } from './speech.ts'
import type { UploadRequest } from './upload-file.ts'

/** A visitor message shown before the server has confirmed it. */
export interface Outgoing {
  client_id: string
  content: Content
  /** Why the server refused it, when it did. */
  failed?: string
  /** A file being sent: its name and size, a picture's preview (a data: URL), how much has gone. */
  file?: { name: string; size: number; preview?: string; progress: number }
}

/** Pictures up to this size are previewed while they upload (read into a data: URL). */
const PREVIEW_MAX_BYTES = 2 * 1024 * 1024

export interface SessionOptions {
  socketUrl: string
  /** `{server}/widget/v1/attachments?key=wk_...`: where the visitor's files go. */
  uploadUrl: string
  profile: VisitorProfile
  /** Survives reloads: the anonymous visitor token and when the visitor last looked. */
  memory: KeyValueStore
  /** Survives navigation within the tab: whether the chat window is open. */
  tabMemory: KeyValueStore
  pageUrl: () => string
  warn: (message: string) => void
  /** The widget's language, for the refusals the session words itself. */
  speech?: () => Speech
  /** The browser's language (a checked BCP 47 tag), told to the server in the hello: the contact's `locale`. */
  locale?: string
}

const TYPING_TIMEOUT_MS = 15_000
/** The bot types while an LLM's tools run, which may take longer than a person's pause. */
const BOT_TYPING_TIMEOUT_MS = 60_000
/** The server's refusals of an end rating: shown under the rating, not as a chat error. */
const RATING_REFUSAL_CODES: ReadonlySet<string> = new Set(RATING_REFUSALS)
/** Each refusal in the visitor's language. */
const RATING_REFUSAL_TEXTS: Record<RatingRefusal, TextKey> = {
  rating_off: 'rating_off',
  unknown_conversation: 'rating_unknown',
  conversation_not_closed: 'rating_not_closed',
  already_rated: 'rating_given',
  invalid_rating: 'rating_invalid',
}

/**
 * The chat as the view sees it (signals) and the glue between the view, the page's API calls
 * and the socket: what to send on open, on a click, on a new identity; what to show on each
 * server message.
 */
export function createSession(options: SessionOptions) {
  const { profile, memory, tabMemory, warn } = options
  const t = () => (options.speech?.() ?? ENGLISH).t
  const tooLarge = (maxBytes: number, size: number) => fillText(t().file_too_large, { size: fileSizeText(size), max: fileSizeText(maxBytes, 'down') })
  const [messages, setMessages] = createSignal<ChatMessage[]>([])
  const [outgoing, setOutgoing] = createSignal<Outgoing[]>([])
  const patchOutgoing = (client_id: string, patch: (item: Outgoing) => Outgoing) =>
    setOutgoing((list) => list.map((item) => (item.client_id === client_id ? patch(item) : item)))
  const failOutgoing = (client_id: string, failed: string) => patchOutgoing(client_id, (item) => ({ ...item, failed }))
  const dropOutgoing = (client_id: string) => setOutgoing((list) => list.filter((item) => item.client_id !== client_id))
  const [conversation, setConversation] = createSignal<{
    id: string
    status: ConversationStatus
    rating?: ConversationRating | null
    read_by_team?: ReadMark | null
    /** Handed off outside business hours with no e-mail known: ask for one. */
    ask_email?: true
  } | null>(null)
  /** The e-mail this visitor left in this tab, after being asked for it. */
  const [emailLeft, setEmailLeft] = createSignal<string | null>(null)
  /** Why the server refused the visitor's end rating, if it did. */
  const [ratingError, setRatingError] = createSignal<string | null>(null)
  const [connection, setConnection] = createSignal<ConnectionState>('idle')
  const [typing, setTyping] = createSignal<'bot' | 'agent' | null>(null)
  const [isOpen, setIsOpen] = createSignal(tabMemory.get('open') === '1')
  const [unread, setUnread] = createSignal(0)
  /** The newest bot or agent message that arrived while the chat was closed, until opened or dismissed. */
  const [preview, setPreview] = createSignal<ChatMessage | null>(null)
  const [hasMore, setHasMore] = createSignal(false)
  /** Counts the times history was drawn (a first or replaced page, earlier messages): not news for the log's live region. */
  const [historyDrawn, setHistoryDrawn] = createSignal(0)
  const [unavailable, setUnavailable] = createSignal(false)
  /** The bot's answers being written (LLM agent states); each ends as the stored message with its id. */
  const [drafts, setDrafts] = createSignal<Draft[]>([])
  let typingTimer: ReturnType<typeof setTimeout> | undefined
  let startSent = false
  let loadingOlder = false
  /** The `after` of the last hello: its welcome carries only newer messages. */
  let helloAfter: string | undefined
  /** From the latest welcome: this socket's permission to send files, and their largest size. */
  let upload: { token: string; maxBytes: number } | null = null

  const newest = () => messages().at(-1)
  /** The newest message id this tab told the server the visitor has seen. */
  let readSent = ''
  const markSeen = () => {
    const last = newest()
    if (last) memory.set('seen', last.created_at)
    setUnread(0)
    setPreview(null)
    // Agents see how far the visitor has read: only messages of the running conversation count.
    if (isOpen() && last && last.conversation_id === conversation()?.id && last.id > readSent && socket.send({ type: 'read', up_to: last.id })) readSent = last.id
  }

  const socket = createConnection({
    url: options.socketUrl,
    hello: () => {
      const hello: ClientMessage = { type: 'hello', v: 1, page_url: options.pageUrl().slice(0, 2048) }
      const token = memory.get('visitor')
      if (token) hello.visitor_token = token
      if (profile.userId) hello.user_id = profile.userId
      if (profile.userHash) hello.user_hash = profile.userHash
      if (options.locale) hello.locale = options.locale
      if (Object.keys(profile.contactDetails).length > 0) hello.contact_details = { ...profile.contactDetails }
      helloAfter = newest()?.id
      if (helloAfter) hello.after = helloAfter
      return hello
    },
    onMessage: (message) => batch(() => receive(message)),
    onState: (state, closed) => {
      setConnection(state)
      if (state === 'refused') {
        setUnavailable(true)
        warn(`the server closed the chat (${closed?.code}${closed?.reason ? `: ${closed.reason}` : ''}); it will not reconnect`)
      }
    },
  })

  const receive = (message: ServerMessage) => {
    switch (message.type) {
      case 'welcome': {
        memory.set('visitor', message.visitor_token)
        upload = { token: message.upload_token, maxBytes: message.upload_max_bytes }
        // A resync adds what was missed; a first welcome, or a gap too long for one welcome,
        // brings the newest page, with older messages on request.
        const added = helloAfter !== undefined && !message.has_more
        setMessages(added ? mergeMessages(messages(), message.messages) : mergeMessages([], message.messages))
        if (!added) setHasMore(message.has_more)
        if (!added) setHistoryDrawn((count) => count + 1)
        setConversation(message.conversation)
        setOutgoing((list) => list.filter((item) => !messages().some((shown) => shown.client_id === item.client_id)))
        setTyping(null)
        // Drafts are not history: the server sends again the ones still being written.
        setDrafts([])
        // A first visit on this device: earlier history is not news.
        if (memory.get('seen') === null && newest()) markSeen()
        if (isOpen()) markSeen()
        else setUnread(countUnread(messages(), memory.get('seen')))
        startSent = false
        if (isOpen()) startIfNeeded()
        return
      }
      case 'message': {
        const { message: chat } = message
        setMessages(mergeMessages(messages(), [chat]))
        setDrafts(withoutDraft(drafts(), chat.id))
        if (chat.client_id) dropOutgoing(chat.client_id)
        if (chat.role !== 'visitor') setTyping(null)
        // A message of another conversation: a new one opened (a closed one's status does not carry over).
        if (conversation()?.id !== chat.conversation_id) setConversation({ id: chat.conversation_id, status: 'bot' })
        if (isOpen()) markSeen()
        else if (chat.role !== 'visitor') {
          setUnread(countUnread(messages(), memory.get('seen')))
          if (chat.role === 'bot' || chat.role === 'agent') setPreview(chat)
        }
        return
      }
      case 'history':
        loadingOlder = false
        setHistoryDrawn((count) => count + 1)
        setMessages(mergeMessages(messages(), message.messages))
        setHasMore(message.has_more)
        return
      case 'typing':
        clearTimeout(typingTimer)
        setTyping(message.active ? message.from : null)
        if (message.active) typingTimer = setTimeout(() => setTyping(null), message.from === 'bot' ? BOT_TYPING_TIMEOUT_MS : TYPING_TIMEOUT_MS)
        return
      case 'draft':
      case 'draft_delta':
      case 'draft_dropped':
        setDrafts(applyDraftFrame(drafts(), message))
        return
      case 'status': {
        // Its rating and read mark stay (they belong to the conversation, not to its status).
        const same = conversation()?.id === message.conversation_id ? conversation() : null
        const { ask_email: _kept, ...rest } = same ?? { ask_email: undefined }
        setConversation({ ...rest, id: message.conversation_id, status: message.status, ...(message.ask_email ? { ask_email: true as const } : {}) })
        return
      }
      case 'read':
        if (conversation()?.id === message.conversation_id) setConversation({ ...conversation()!, read_by_team: { up_to: message.up_to, at: message.at } })
        return
      case 'rating':
        if (conversation()?.id === message.conversation_id) setConversation({ ...conversation()!, rating: message.rating })
        setRatingError(null)
        return
      case 'error':
        if (RATING_REFUSAL_CODES.has(message.code)) setRatingError(t()[RATING_REFUSAL_TEXTS[message.code as RatingRefusal]])
        else if (message.client_id) failOutgoing(message.client_id, message.message)
        else warn(`the server refused a request: ${message.message} (${message.code})`)
        return
    }
  }

  /** The visitor opened the chat: a conversation starts once (greeting, then the flow), or anew after one closed. */
  const startIfNeeded = () => {
    if ((conversation() && conversation()?.status !== 'closed') || startSent) return
    if (socket.send({ type: 'start' })) startSent = true
  }

  const sendVisitor = (content: Content, message: (client_id: string) => ClientMessage) => {
    const client_id = newClientId()
    setOutgoing((list) => [...list, { client_id, content }])
    startIfNeeded()
    socket.send(message(client_id))
  }

  /**
   * A file from the attach button, a paste or a drop: shown at once with its progress, refused
   * here when it cannot pass. `send` sends it (upload-file.ts): the open chat's script
   * carries it, so the script every page loads does not.
   */
  const sendFile = (file: File, send: (request: UploadRequest) => Promise<ChatMessage>) => {
    const client_id = newClientId()
    const image = file.type.startsWith('image/')
    const fail = (failed: string) => failOutgoing(client_id, failed)
    const patchFile = (part: Partial<NonNullable<Outgoing['file']>>) =>
      patchOutgoing(client_id, (item) => (item.file ? { ...item, file: { ...item.file, ...part } } : item))
    setOutgoing((list) => [
      ...list,
      { client_id, content: { kind: 'media', media: { type: image ? 'image' : 'file', url: '', filename: file.name } }, file: { name: file.name, size: file.size, progress: 0 } },
    ])
    if (file.type && !(UPLOAD_TYPES as readonly string[]).includes(file.type)) return fail(t().only_types)
    if (!upload) return fail(t().offline)
    // The same sentence as the server's 413 (its code is worded here), whichever side refuses.
    if (file.size > upload.maxBytes) return fail(tooLarge(upload.maxBytes, file.size))
    const maxBytes = upload.maxBytes
    if (image && file.size <= PREVIEW_MAX_BYTES) {
      const reader = new FileReader()
      reader.onload = () => {
        if (typeof reader.result === 'string') patchFile({ preview: reader.result })
      }
      reader.readAsDataURL(file)
    }
    send({
      url: options.uploadUrl,
      token: upload.token,
      clientId: client_id,
      file,
      onProgress: (progress) => patchFile({ progress }),
    }).then(
      (stored) => batch(() => receive({ type: 'message', message: stored })),
      // The server words its refusals in English, and more precisely ("this file is an SVG
      // image"): shown as they are to an English widget, worded from the catalogue otherwise.
      (error: Error & { code?: string; status?: number }) =>
        fail(
          error.message && (options.speech?.() ?? ENGLISH).tag === 'en'
            ? error.message
            : error.code === 'attachment_too_large'
            ? tooLarge(maxBytes, file.size)
            : error.code === 'attachment_type_refused'
              ? t().only_types
              : error.code === 'network'
                ? t().file_not_sent
                : error.message || fillText(t().server_answered, { status: error.status ?? 0 }),
        ),
    )
  }

  const listener: ProfileListener = {
    identityChanged() {
      // Another person: nothing of the previous one stays on screen, and a live socket starts over.
      const live = socket.state !== 'idle' && socket.state !== 'refused'
      if (live) socket.disconnect()
      socket.forgetUnconfirmed()
      batch(() => {
        setMessages([])
        setOutgoing([])
        setDrafts([])
        setConversation(null)
        setHasMore(false)
        setUnread(0)
        setPreview(null)
      })
      startSent = false
      readSent = ''
      if (live) socket.connect()
    },
    contactDetailsChanged(changes: ContactDetails) {
      socket.send({ type: 'contact_details', details: changes })
    },
  }

  /** Outside business hours: the visitor's e-mail, stored among their contact details for the team to answer by. */
  const leaveEmail = (email: string): boolean => {
    const sent = socket.send({ type: 'contact_details', details: { email } })
    if (sent) setEmailLeft(email)
    return sent
  }

  return {
    messages,
    outgoing,
    conversation,
    connection,
    typing,
    isOpen,
    unread,
    preview,
    hasMore,
    historyDrawn,
    unavailable,
    drafts,
    ratingError,
    emailLeft,
    leaveEmail,
    listener,
    setOpen(open: boolean) {
      setIsOpen(open)
      tabMemory.set('open', open ? '1' : null)
      // A hint for widget.js: only a visitor who has ever opened the chat here makes it read the tab's storage before the bubble.
      if (open) memory.set('opened', '1')
      if (open) {
        markSeen()
        startIfNeeded()
      }
    },
    /** The visitor closed the preview: it stays closed until the next message. */
    dismissPreview() {
      setPreview(null)
    },
    sendText(text: string) {
      const trimmed = text.trim()
      if (!trimmed) return
      sendVisitor({ kind: 'text', text: trimmed }, (client_id) => ({ type: 'message', client_id, text: trimmed }))
    },
    sendReply(reply_to: 'button' | 'row', id: string, title: string) {
      sendVisitor({ kind: 'reply', reply_to, id, title }, (client_id) => ({ type: 'reply', client_id, reply_to, id, title }))
    },
    sendFile,
    /** The visitor put away a file that could not be sent. */
    dismissOutgoing: dropOutgoing,
    sendTyping(active: boolean) {
      socket.send({ type: 'typing', active })
    },
    /** The end rating of the closed conversation shown. */
    rate(score: number, comment: string) {
      const current = conversation()
      if (!current) return
      const trimmed = comment.trim()
      setRatingError(null)
      if (!socket.send({ type: 'rate', conversation_id: current.id, score, ...(trimmed ? { comment: trimmed } : {}) })) {
        setRatingError(t().offline)
      }
    },
    loadOlder() {
      const oldest = messages()[0]
      if (!oldest || loadingOlder) return
      loadingOlder = socket.send({ type: 'history', before: oldest.id })
    },
    /** Path visibility: off-page means disconnected; back on a matching page resumes. */
    setActive(active: boolean) {
      if (active) socket.connect()
      else socket.disconnect()
    },
    retryNow: () => socket.retryNow(),
  }
}

export type Session = ReturnType<typeof createSession>
