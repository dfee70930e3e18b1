import { Elysia, t } from 'elysia'
import { ChatMessage } from '../conversations/model.ts'
import type { Authenticate } from '../people/authenticate.ts'
import { attachmentTooLarge } from '../attachments/service.ts'
import { errorResponses } from '../http/error-responses.ts'
import { type BodyLimit, declaredBodyBytes, fileBytes } from '../http/json-body.ts'
import {
  AssignBody,
  AttachmentQuery,
  Context,
  DeskConversation,
  DeskConversationList,
  DeskConversationParams,
  DeskEvent,
  DeskListQuery,
  Note,
  NoteBody,
  ReadBody,
  ReplyBody,
  SavedReply,
  SavedReplyBody,
  SavedReplyList,
  SavedReplyParams,
  SavedReplyPatch,
  StatusBody,
  Timeline,
  TimelineQuery,
  TypingBody,
} from './model.ts'
import type { DeskService } from './service.ts'

const tags = ['Desk']
const PERSON_NOTE = 'Works with the session cookie (a person; changes need Origin) and with an API key.'

/** The desk's routes: workspace-wide, for people (session cookie) and machines (API key) alike. */
export function deskRoutes(auth: Authenticate, desk: DeskService) {
  const conversations = new Elysia({ prefix: '/desk/conversations' })
    .use(auth)
    .get('/', (caller) => desk.list(caller, caller.query), {
      query: DeskListQuery,
      response: { 200: DeskConversationList, ...errorResponses(400, 422) },
      detail: {
        tags,
        summary: 'List conversations for the desk (every chatbot of the workspace)',
        description: `Views: waiting (handed off, longest waiting first, with the wait), mine, open, bot, closed. Filter by chatbot and channel; search with q. Cursor paging: pass next_cursor as cursor. ${PERSON_NOTE}`,
      },
    })
    .get('/:conversation_id', (caller) => desk.one(caller, caller.params.conversation_id), {
      params: DeskConversationParams,
      response: { 200: DeskConversation, ...errorResponses(404) },
      detail: { tags, summary: "One conversation's list row", description: PERSON_NOTE },
    })
    .get('/:conversation_id/timeline', (caller) => desk.timeline(caller, caller.params.conversation_id, caller.query.before), {
      params: DeskConversationParams,
      query: TimelineQuery,
      response: { 200: Timeline, ...errorResponses(404, 422) },
      detail: {
        tags,
        summary: 'The conversation as the visitor saw it, with events and private notes',
        description: `The newest 100 messages (older with before), and the timeline events (handed off, taken over, handed back, closed, assigned) and notes of the same span, oldest first. ${PERSON_NOTE}`,
      },
    })
    .post('/:conversation_id/replies', (caller) => caller.status(201, desk.reply(caller, caller.params.conversation_id, caller.body)), {
      params: DeskConversationParams,
      body: ReplyBody,
      response: { 201: ChatMessage, ...errorResponses(400, 403, 404, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Reply to the visitor',
        description: `Sent as the signed-in person (their name shows). With last_seen_message_id, newer visitor or agent messages answer 409 stale_view naming them in errors; force: true sends anyway. ${PERSON_NOTE}`,
      },
    })
    .post(
      '/:conversation_id/attachments',
      (caller) => caller.status(201, desk.attach(caller, caller.params.conversation_id, { filename: caller.query.filename ?? '', bytes: fileBytes(caller.body) })),
      {
        params: DeskConversationParams,
        query: AttachmentQuery,
        response: { 201: ChatMessage, ...errorResponses(400, 403, 404, 413, 415, 422) },
        detail: {
          tags,
          summary: 'Send the visitor a file (picture or PDF)',
          description: `The file's bytes as the body (any Content-Type: the type is told by the bytes), its name in ?filename=. PNG, JPEG, GIF, WebP and PDF only (415 attachment_type_refused otherwise), at most PARLEY_ATTACHMENT_MAX_BYTES (413 attachment_too_large), at most 50 files and 100 MiB per conversation (413 attachment_limit_reached). Stored with an agent media message signed as your replies are, delivered like them to the widget, the rest-api webhook and the messaging app; its url is the file's address. ${PERSON_NOTE}`,
        },
      },
    )
    .post('/:conversation_id/notes', (caller) => caller.status(201, desk.addNote(caller, caller.params.conversation_id, caller.body.text)), {
      params: DeskConversationParams,
      body: NoteBody,
      response: { 201: Note, ...errorResponses(400, 403, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Add a private note',
        description: `Seen only on the desk: never sent to the visitor, a webhook or the messaging app. ${PERSON_NOTE}`,
      },
    })
    .get('/:conversation_id/notes', (caller) => ({ items: desk.notes(caller, caller.params.conversation_id) }), {
      params: DeskConversationParams,
      response: { 200: t.Object({ items: t.Array(Note) }), ...errorResponses(404) },
      detail: { tags, summary: "A conversation's private notes", description: `Oldest first. ${PERSON_NOTE}` },
    })
    .get('/:conversation_id/events', (caller) => ({ items: desk.events(caller, caller.params.conversation_id) }), {
      params: DeskConversationParams,
      response: { 200: t.Object({ items: t.Array(DeskEvent) }), ...errorResponses(404) },
      detail: { tags, summary: "A conversation's timeline events", description: `Oldest first. ${PERSON_NOTE}` },
    })
    .post('/:conversation_id/status', (caller) => desk.setStatus(caller, caller.params.conversation_id, caller.body.status), {
      params: DeskConversationParams,
      body: StatusBody,
      response: { 200: DeskConversation, ...errorResponses(400, 403, 404, 415, 422) },
      detail: {
        tags,
        summary: 'Take over, hand back to the bot, or close',
        description: `Recorded on the timeline with who did it. Taking over an unassigned conversation assigns it to you. ${PERSON_NOTE}`,
      },
    })
    .post('/:conversation_id/assign', (caller) => desk.assign(caller, caller.params.conversation_id, caller.body.assignee_id), {
      params: DeskConversationParams,
      body: AssignBody,
      response: { 200: DeskConversation, ...errorResponses(400, 403, 404, 415, 422) },
      detail: { tags, summary: 'Assign to a person ("me" for yourself) or unassign (null)', description: PERSON_NOTE },
    })
    .post('/:conversation_id/read', (caller) => {
      desk.markRead(caller, caller.params.conversation_id, caller.body.message_id)
      return caller.status(204, undefined)
    }, {
      params: DeskConversationParams,
      body: ReadBody,
      response: { 204: t.Void(), ...errorResponses(400, 403, 404, 415, 422) },
      detail: { tags, summary: 'Mark read up to a message', description: 'Your unread mark for the conversation; needs the session cookie.' },
    })
    .post('/:conversation_id/typing', (caller) => {
      desk.typing(caller, caller.params.conversation_id, caller.body.active)
      return caller.status(204, undefined)
    }, {
      params: DeskConversationParams,
      body: TypingBody,
      response: { 204: t.Void(), ...errorResponses(400, 403, 404, 415, 422) },
      detail: { tags, summary: 'Show or hide "agent is typing" to the visitor and the other desks', description: PERSON_NOTE },
    })
    .get('/:conversation_id/context', (caller) => desk.context(caller, caller.params.conversation_id), {
      params: DeskConversationParams,
      response: { 200: Context, ...errorResponses(404) },
      detail: {
        tags,
        summary: 'The context panel',
        description: `Who the contact is (identity, verified or not), their details with when each was set, channel and integration, the widget's page and browser, earlier conversations, and the flow's name, version, state and variables at the handoff. ${PERSON_NOTE}`,
      },
    })

  const savedReplies = new Elysia({ prefix: '/desk/saved-replies' })
    .use(auth)
    .get('/', (caller) => ({ items: desk.savedReplies(caller) }), {
      response: { 200: SavedReplyList },
      detail: { tags, summary: "The workspace's saved replies", description: `By shortcut. ${PERSON_NOTE}` },
    })
    .post('/', (caller) => caller.status(201, desk.createSavedReply(caller, caller.body)), {
      body: SavedReplyBody,
      response: { 201: SavedReply, ...errorResponses(400, 403, 409, 413, 415, 422) },
      detail: { tags, summary: 'Add a saved reply', description: `Shortcuts are unique per workspace, whatever their case (409 shortcut_taken). ${PERSON_NOTE}` },
    })
    .patch('/:saved_reply_id', (caller) => desk.updateSavedReply(caller, caller.params.saved_reply_id, caller.body), {
      params: SavedReplyParams,
      body: SavedReplyPatch,
      response: { 200: SavedReply, ...errorResponses(400, 403, 404, 409, 413, 415, 422) },
      detail: { tags, summary: 'Change a saved reply', description: PERSON_NOTE },
    })
    .delete('/:saved_reply_id', (caller) => {
      desk.deleteSavedReply(caller, caller.params.saved_reply_id)
      return caller.status(204, undefined)
    }, {
      params: SavedReplyParams,
      response: { 204: t.Void(), ...errorResponses(400, 403, 404) },
      detail: { tags, summary: 'Delete a saved reply', description: PERSON_NOTE },
    })

  return new Elysia().use(conversations).use(savedReplies)
}

/** The body parser's rule for the desk's uploads: the file's raw bytes, up to the attachment limit. */
export function deskUploadBodies(maxBytes: number): BodyLimit[] {
  return [
    {
      path: /^\/api\/dev\/v1\/desk\/conversations\/[^/]+\/attachments$/,
      bytes: maxBytes,
      raw: true,
      tooLarge: (request) => attachmentTooLarge(maxBytes, declaredBodyBytes(request)),
    },
  ]
}
