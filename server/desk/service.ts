import type { MediaContent } from '../attachments/model.ts'
import type { AttachmentService } from '../attachments/service.ts'
import type { ContactStore } from '../conversations/contact-store.ts'
import type { ConversationStore } from '../conversations/conversation-store.ts'
import type { MessageStore } from '../conversations/message-store.ts'
import type { Message } from '../conversations/model.ts'
import { type ConversationService, mediaAsText } from '../conversations/service.ts'
import type { WriteBatcher } from '../db/write-batcher.ts'
import { ApiError, conflict, invalidField, notFound } from '../http/api-error.ts'
import type { Caller } from '../people/session-auth.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { newId } from '../support/new-id.ts'
import { deskEvent } from './desk-event.ts'
import type { DeskFeed } from './feed.ts'
import { decodeCursor, encodeCursor } from './list-cursor.ts'
import type { ListRow, ListStore } from './list-store.ts'
import type { Context, DeskConversation, DeskEvent, DeskListQuery, Note, ReplyBody, SavedReply, TimelineItem, View } from './model.ts'
import { searchQuery } from './search-query.ts'
import { nameKeyOf } from '../labels/store.ts'
import type { DeskStore, EventRow, NoteRow, SavedReplyRow, ThreadRow } from './store.ts'

interface Deps {
  store: DeskStore
  lists: ListStore
  conversations: ConversationStore
  contacts: ContactStore
  messages: MessageStore
  lifecycle: ConversationService
  attachments: AttachmentService
  batch: WriteBatcher
  events: EventBus
  feed: DeskFeed
  now: Clock
}

export type DeskService = ReturnType<typeof deskService>

/** Messages a timeline page holds; events and notes of the same span come with them. */
const TIMELINE_MESSAGES = 100
const DEFAULT_PAGE = 25

/**
 * The desk: workspace-wide lists, the timeline with events and private notes, replies that
 * refuse a stale view, assignment, the context panel and saved replies. Every conversation is
 * looked up within the caller's workspace (another workspace's ids answer 404). A person's
 * actions are recorded with their name; an API key's with none.
 */
export function deskService({ store, lists, conversations, contacts, messages, lifecycle, attachments, batch, events, feed, now }: Deps) {
  function thread(caller: Caller, conversationId: string): ThreadRow {
    const found = store.thread(caller.workspaceId, conversationId)
    if (!found) throw notFound('conversation')
    return found
  }

  function stored(conversationId: string) {
    const conversation = conversations.get(conversationId)
    if (!conversation) throw notFound('conversation')
    return conversation
  }

  /** The signed-in person with their name, or null for an API key. */
  function actor(caller: Caller): { id: string; display_name: string } | null {
    if (!caller.person) return null
    const user = store.activeUser(caller.workspaceId, caller.person.id)
    return user ? { id: user.id, display_name: user.display_name } : null
  }

  /**
   * An agent message sent as the caller (signed with a person's name), and read by that
   * person. A person's reply to a conversation nobody has is theirs from then on, so that two
   * people do not answer the same visitor.
   */
  function sendAs(caller: Caller, conversationId: string, send: (author: string | undefined) => Message): Message {
    const person = actor(caller)
    const message = send(person?.display_name)
    if (person) batch.run(() => store.markRead(person.id, conversationId, message.id))
    if (person && thread(caller, conversationId).assignee_id === null) service.assign(caller, conversationId, person.id)
    return message
  }

  function requirePerson(caller: Caller, what: string): string {
    if (!caller.person) throw new ApiError(400, 'session_required', `${what} is for a signed-in person: send the session cookie, not an API key`)
    return caller.person.id
  }

  /** A list row as the caller sees it: read marks are a person's, so for an API key nothing is unread. */
  function toRow(caller: Caller, row: ListRow, at: number): DeskConversation {
    const details = JSON.parse(row.details) as Record<string, unknown>
    const text = (key: string) => (typeof details[key] === 'string' || typeof details[key] === 'number' ? String(details[key]) : null)
    const external = row.external_id
    const name = text('name') ?? ([text('first_name'), text('last_name')].filter(Boolean).join(' ') || null)
    return {
      id: row.id,
      chatbot_id: row.chatbot_id,
      chatbot_name: row.chatbot_name,
      channel: row.channel,
      integration_id: row.integration_id,
      status: row.status,
      created_at: row.created_at,
      last_message_at: row.last_message_at,
      handoff_at: row.handoff_at,
      waiting_since: row.waiting_since,
      waiting_seconds: row.waiting_since ? Math.max(0, Math.floor((at - Date.parse(row.waiting_since)) / 1000)) : null,
      assignee: row.assignee_id ? { id: row.assignee_id, display_name: row.assignee_name ?? '' } : null,
      contact: {
        id: row.contact_id,
        name,
        email: external?.includes('@') ? external : text('email'),
        phone: external?.startsWith('+') ? external : text('phone'),
        identified: external !== null,
      },
      last_message: row.last_id
        ? { id: row.last_id, role: row.last_role ?? '', author: row.last_author, preview: preview(row.last_content), created_at: row.last_at ?? row.last_message_at }
        : null,
      rating: row.rating_scale && row.rating_score !== null ? { scale: row.rating_scale, score: row.rating_score, comment: row.rating_comment, created_at: row.rating_at ?? '' } : null,
      unread: Boolean(caller.person) && row.last_visitor_id !== null && (row.read_id === null || row.last_visitor_id > row.read_id),
      labels: JSON.parse(row.labels) as DeskConversation['labels'],
    }
  }

  const toNote = (row: NoteRow): Note => ({
    id: row.id,
    conversation_id: row.conversation_id,
    author: row.author_id ? { id: row.author_id, display_name: row.author_name ?? '' } : null,
    text: row.text,
    created_at: row.created_at,
  })

  const toSavedReply = ({ workspace_id: _, ...row }: SavedReplyRow): SavedReply => row

  function announceThread(workspaceId: string, row: ThreadRow, change: 'status' | 'assigned', status = row.status, assigneeId = row.assignee_id) {
    feed.publish(workspaceId, { type: 'conversation', conversation_id: row.conversation_id, chatbot_id: row.chatbot_id, change, status, assignee_id: assigneeId })
  }

  const service = {
    list(caller: Caller, query: DeskListQuery): { items: DeskConversation[]; next_cursor: string | null } {
      const view: View = query.view ?? 'open'
      if (view === 'mine') requirePerson(caller, 'the view "mine"')
      const limit = query.limit ?? DEFAULT_PAGE
      if (limit < 1 || limit > 100) throw invalidField('/limit', 'must be a whole number from 1 to 100')
      const search = query.q === undefined ? undefined : searchQuery(query.q)
      const rows = lists.list({
        view,
        workspaceId: caller.workspaceId,
        personId: caller.person?.id ?? null,
        chatbotId: query.chatbot_id,
        channel: query.channel,
        rating: query.rating,
        contactMatch: search && search.contactMatch,
        messageMatch: search && search.messageMatch,
        labelKey: query.q === undefined ? undefined : nameKeyOf(query.q),
        labelId: query.label_id,
        after: query.cursor === undefined ? undefined : decodeCursor(view, query.cursor),
        limit: limit + 1,
      })
      const page = rows.slice(0, limit)
      const at = Date.parse(now())
      const lastRow = page.at(-1)
      const items = page.map((row) => toRow(caller, row, at))
      return {
        items,
        next_cursor: rows.length > limit && lastRow ? encodeCursor(view, { seq: lastRow.seq, waitingSince: lastRow.waiting_since ?? undefined }) : null,
      }
    },

    /** Messages as the visitor saw them, with the desk's events and notes of the same span, oldest first. */
    timeline(caller: Caller, conversationId: string, before?: string): { items: TimelineItem[]; has_more: boolean } {
      thread(caller, conversationId)
      const page = before ? messages.before(conversationId, before, TIMELINE_MESSAGES) : messages.latest(conversationId, TIMELINE_MESSAGES)
      const from = page.hasMore ? (page.messages[0]?.created_at ?? '') : ''
      const until = before ? (page.messages.at(-1)?.created_at ?? '') : null
      const within = (at: string) => at >= from && (until === null || at <= until)
      const items: TimelineItem[] = [
        ...page.messages.map((message) => ({ type: 'message' as const, at: message.created_at, message })),
        ...store.events(conversationId).filter((row) => within(row.at)).map((row) => ({ type: 'event' as const, at: row.at, event: deskEvent(row) })),
        ...store.notes(conversationId).filter((row) => within(row.created_at)).map((row) => ({ type: 'note' as const, at: row.created_at, note: toNote(row) })),
      ]
      // Stable: at one instant a message comes before the event it caused.
      items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
      return { items, has_more: page.hasMore }
    },

    /**
     * A person's reply. With `last_seen_message_id`, visitor or agent messages stored after it
     * mean the person answers a view that is out of date (the visitor said more, or a colleague
     * answered): 409 stale_view naming them, unless `force`.
     */
    reply(caller: Caller, conversationId: string, body: ReplyBody): Message {
      thread(caller, conversationId)
      const seen = body.last_seen_message_id
      if (seen && !body.force) {
        if (!store.hasMessage(conversationId, seen)) throw invalidField('/last_seen_message_id', 'is not a message of this conversation')
        const newer = store.newerFromPeople(conversationId, seen)
        if (newer.length > 0) {
          throw new ApiError(
            409,
            'stale_view',
            `${newer.length} newer message(s) since the one you saw (${newer.map((m) => `${m.role} ${m.id}`).join(', ')}); read them, or send with force: true`,
            newer.map((message) => ({ path: `/messages/${message.id}`, message: `${message.role} wrote at ${message.created_at}`, code: message.role })),
          )
        }
      }
      return sendAs(caller, conversationId, (author) => lifecycle.agentSays(stored(conversationId), body.text, author))
    },

    /**
     * A person's (or API key's) file, sent to the visitor as an agent's media message, signed
     * as their replies are. The file is checked (type by its bytes, size, the conversation's
     * limits) and stored in the same write as the message: a refused file stores nothing.
     */
    attach(caller: Caller, conversationId: string, file: { filename: string; bytes: Uint8Array }): Message {
      thread(caller, conversationId)
      const conversation = stored(conversationId)
      const { content } = attachments.save({
        workspaceId: caller.workspaceId,
        chatbotId: conversation.chatbot_id,
        conversationId,
        role: 'agent',
        filename: file.filename,
        bytes: file.bytes,
      })
      return sendAs(caller, conversationId, (author) => lifecycle.agentSendsMedia(conversation, content, author))
    },

    /** Take over, hand back or close, recorded on the timeline with who did it. */
    setStatus(caller: Caller, conversationId: string, status: 'bot' | 'handoff' | 'closed'): DeskConversation {
      const row = thread(caller, conversationId)
      const conversation = stored(conversationId)
      if (conversation.status !== status) {
        const person = actor(caller)
        lifecycle.setStatus(conversation, status, { chatbotId: conversation.chatbot_id, channel: conversation.channel, integrationId: conversation.integration_id })
        // Same batch, same transaction as the trigger's event: who acted is never lost or
        // misattributed. A person who takes over keeps nobody waiting for a person.
        if (person) {
          batch.run(() => {
            store.attributeStatusEvent(conversationId, person.id, person.display_name)
            if (status === 'handoff') store.endWait(conversationId)
          })
        }
        // Taking over assigns to whoever took it, if no one had it.
        if (status === 'handoff' && person && row.assignee_id === null) this.assign(caller, conversationId, person.id)
      }
      return this.one(caller, conversationId)
    },

    /** One list row, as the lists show it. */
    one(caller: Caller, conversationId: string): DeskConversation {
      thread(caller, conversationId)
      const found = lists.list({ view: 'open', workspaceId: caller.workspaceId, personId: caller.person?.id ?? null, conversationId, limit: 1 })[0]
      if (!found) throw notFound('conversation')
      return toRow(caller, found, Date.parse(now()))
    },

    assign(caller: Caller, conversationId: string, assigneeId: string | null): DeskConversation {
      const row = thread(caller, conversationId)
      const target = assigneeId === 'me' ? requirePerson(caller, 'assigning to "me"') : assigneeId
      let assignee: { id: string; display_name: string } | null = null
      if (target !== null) {
        assignee = store.activeUser(caller.workspaceId, target) ?? null
        if (!assignee) throw invalidField('/assignee_id', 'is not an active person of this workspace')
      }
      if (row.assignee_id !== (assignee?.id ?? null)) {
        const person = actor(caller)
        const at = now()
        const event: Omit<EventRow, 'id'> = {
          conversation_id: conversationId,
          kind: assignee ? 'assigned' : 'unassigned',
          at,
          actor_id: person?.id ?? null,
          actor_name: person?.display_name ?? null,
          data: JSON.stringify(assignee ? { assignee } : { previous_assignee_id: row.assignee_id }),
        }
        let id = 0
        batch.run(() => {
          store.assign(conversationId, assignee?.id ?? null, at)
          id = store.insertEvent(event)
        })
        announceThread(caller.workspaceId, row, 'assigned', row.status, assignee?.id ?? null)
        feed.publish(caller.workspaceId, { type: 'timeline', conversation_id: conversationId, event: deskEvent({ ...event, id }) })
      }
      return this.one(caller, conversationId)
    },

    /** A private note: stored apart from messages and announced only to desks. */
    addNote(caller: Caller, conversationId: string, text: string): Note {
      thread(caller, conversationId)
      const person = actor(caller)
      const row: NoteRow = { id: newId(), conversation_id: conversationId, author_id: person?.id ?? null, author_name: person?.display_name ?? null, text, created_at: now() }
      batch.run(() => store.insertNote(row))
      const note = toNote(row)
      feed.publish(caller.workspaceId, { type: 'note', conversation_id: conversationId, note })
      return note
    },

    notes(caller: Caller, conversationId: string): Note[] {
      thread(caller, conversationId)
      return store.notes(conversationId).map(toNote)
    },

    events(caller: Caller, conversationId: string): DeskEvent[] {
      thread(caller, conversationId)
      return store.events(conversationId).map(deskEvent)
    },

    markRead(caller: Caller, conversationId: string, messageId: string): void {
      const personId = requirePerson(caller, 'a read mark')
      thread(caller, conversationId)
      if (!store.hasMessage(conversationId, messageId)) throw invalidField('/message_id', 'is not a message of this conversation')
      batch.run(() => store.markRead(personId, conversationId, messageId))
    },

    /** "Agent is typing" to the visitor (the widget), and to the other desks. */
    typing(caller: Caller, conversationId: string, active: boolean): void {
      thread(caller, conversationId)
      events.emit('conversation.typing', { conversation: stored(conversationId), active, from: 'agent', person: actor(caller) })
    },

    context(caller: Caller, conversationId: string): Context {
      const row = thread(caller, conversationId)
      const conversation = stored(conversationId)
      const contact = contacts.get(conversation.contact_id)
      if (!contact) throw notFound('contact')
      const integration = conversation.integration_id ? store.integration(conversation.integration_id) : undefined
      const external = contact.external_id
      const verified = conversation.channel !== 'web' || Boolean(integration?.verifies_identity)
      const times = store.detailTimes(contact.id)
      const handoff = store.lastHandoff(conversationId)
      const handoffData = handoff ? (JSON.parse(handoff.data) as { state?: string | null; variables?: Record<string, unknown>; flow_id?: string | null; flow_version?: number | null }) : null
      const current = conversation.state ? (JSON.parse(conversation.state) as { state?: string; variables?: Record<string, unknown> }) : null
      const flowId = handoffData?.flow_id ?? conversation.flow_id
      const visitor = store.visitorPage(contact.id)
      return {
        conversation: {
          id: conversation.id,
          status: conversation.status,
          channel: conversation.channel,
          created_at: conversation.created_at,
          chatbot: { id: conversation.chatbot_id, name: store.chatbotName(conversation.chatbot_id) },
          integration: conversation.integration_id ? { id: conversation.integration_id, name: integration?.name ?? null, type: integration?.type ?? null } : null,
          assignee: row.assignee_id ? (store.activeUser(caller.workspaceId, row.assignee_id) ?? null) : null,
        },
        contact: {
          id: contact.id,
          identity: external ? { kind: external.includes('@') ? 'email' : 'phone', value: external, verified } : null,
          details: Object.entries(contact.details).map(([key, value]) => ({ key, value, set_at: times.get(key) ?? null })),
          locale: contact.locale,
          created_at: contact.created_at,
        },
        visitor: conversation.channel === 'web' ? (visitor ?? { page_url: null, user_agent: null, address: null }) : null,
        rating: store.rating(conversationId),
        earlier_conversations: store.earlierConversations(contact.id, conversationId) as Context['earlier_conversations'],
        flow: flowId
          ? {
              id: flowId,
              name: store.flowName(flowId),
              version: handoffData?.flow_version ?? conversation.flow_version,
              state: handoffData ? (handoffData.state ?? null) : (current?.state ?? null),
              variables: (handoffData ? handoffData.variables : current?.variables) ?? {},
              at_handoff: handoffData !== null,
            }
          : null,
        agent_failure: agentFailureOf(store.lastAgentFailure(conversationId)),
      }
    },

    savedReplies: (caller: Caller) => store.savedReplies(caller.workspaceId).map(toSavedReply),

    createSavedReply(caller: Caller, body: { shortcut: string; text: string }): SavedReply {
      if (store.savedReplyByShortcut(caller.workspaceId, body.shortcut)) throw conflict('shortcut_taken', `a saved reply already has the shortcut /${body.shortcut}`)
      const row = { id: newId(), workspace_id: caller.workspaceId, shortcut: body.shortcut, text: body.text, created_at: now() }
      batch.run(() => store.insertSavedReply(row))
      return toSavedReply({ ...row, updated_at: null })
    },

    updateSavedReply(caller: Caller, id: string, patch: { shortcut?: string; text?: string }): SavedReply {
      const row = store.savedReply(caller.workspaceId, id)
      if (!row) throw notFound('saved reply')
      const shortcut = patch.shortcut ?? row.shortcut
      const taken = store.savedReplyByShortcut(caller.workspaceId, shortcut)
      if (taken && taken.id !== id) throw conflict('shortcut_taken', `a saved reply already has the shortcut /${shortcut}`)
      const updated = { ...row, shortcut, text: patch.text ?? row.text, updated_at: now() }
      batch.run(() => store.updateSavedReply(id, updated.shortcut, updated.text, updated.updated_at))
      return toSavedReply(updated)
    },

    deleteSavedReply(caller: Caller, id: string): void {
      if (!store.savedReply(caller.workspaceId, id)) throw notFound('saved reply')
      batch.run(() => store.deleteSavedReply(caller.workspaceId, id))
    },
  }
  return service
}

/** The context panel's line about the last failed agent run, from its timeline event. */
function agentFailureOf(row: EventRow | undefined): Context['agent_failure'] {
  if (!row) return null
  const data = JSON.parse(row.data) as { state?: string | null; failure?: { kind?: string; message?: string; http_status?: number | null } }
  return { at: row.at, state: data.state ?? null, kind: data.failure?.kind ?? 'provider_error', message: data.failure?.message ?? '', http_status: data.failure?.http_status ?? null }
}

/** A line of a message for the list: its text, or what kind of message it is. */
function preview(content: string | null): string {
  if (!content) return ''
  const parsed = JSON.parse(content) as { kind?: string; text?: string; title?: string; media?: MediaContent['media'] }
  // A file reads as the flow reads it: `[image] label.png`.
  const text = parsed.kind === 'media' && parsed.media ? mediaAsText(parsed.media) : (parsed.text ?? parsed.title ?? `[${parsed.kind ?? 'message'}]`)
  return text.length > 140 ? `${text.slice(0, 139)}…` : text
}
