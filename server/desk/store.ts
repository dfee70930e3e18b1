import type { Database } from 'bun:sqlite'
import type { Channel } from '../conversations/model.ts'

/** A conversation as the desk finds it: workspace-scoped, with its desk state. */
export interface ThreadRow {
  seq: number
  conversation_id: string
  workspace_id: string
  chatbot_id: string
  channel: Channel
  status: 'bot' | 'handoff' | 'closed'
  handoff_at: string | null
  assignee_id: string | null
  assigned_at: string | null
}

export interface EventRow {
  id: number
  conversation_id: string
  kind: string
  at: string
  actor_id: string | null
  actor_name: string | null
  data: string
}

export interface NoteRow {
  id: string
  conversation_id: string
  author_id: string | null
  author_name: string | null
  text: string
  created_at: string
}

export interface SavedReplyRow {
  id: string
  workspace_id: string
  shortcut: string
  text: string
  created_at: string
  updated_at: string | null
}

export type DeskStore = ReturnType<typeof deskStore>

/** The desk's own rows: threads' assignment, timeline events, notes, read marks, saved replies. */
export function deskStore(db: Database) {
  const thread = db.query<ThreadRow, [string, string]>('SELECT * FROM desk_threads WHERE conversation_id = ? AND workspace_id = ?')
  const assign = db.query<unknown, [string | null, string | null, string]>('UPDATE desk_threads SET assignee_id = ?, assigned_at = ? WHERE conversation_id = ?')
  const insertEvent = db.query<{ id: number }, [string, string, string, string | null, string | null, string]>(
    'INSERT INTO desk_events (conversation_id, kind, at, actor_id, actor_name, data) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
  )
  // The status trigger wrote the event in this same transaction, without knowing who acted.
  const attribute = db.query<unknown, [string | null, string | null, string]>(
    `UPDATE desk_events SET actor_id = ?, actor_name = ?
     WHERE id = (SELECT max(id) FROM desk_events WHERE conversation_id = ? AND kind IN ('handed_off', 'handed_back', 'closed'))`,
  )
  const eventsOf = db.query<EventRow, [string]>('SELECT * FROM desk_events WHERE conversation_id = ? ORDER BY id')
  const lastHandoff = db.query<EventRow, [string]>("SELECT * FROM desk_events WHERE conversation_id = ? AND kind = 'handed_off' ORDER BY id DESC LIMIT 1")
  const insertNote = db.query('INSERT INTO desk_notes (id, conversation_id, author_id, author_name, text, created_at) VALUES ($id, $conversation_id, $author_id, $author_name, $text, $created_at)')
  const notesOf = db.query<NoteRow, [string]>('SELECT * FROM desk_notes WHERE conversation_id = ? ORDER BY id')
  const markRead = db.query<unknown, [string, string, string]>(
    `INSERT INTO desk_reads (user_id, conversation_id, message_id) VALUES (?, ?, ?)
     ON CONFLICT (user_id, conversation_id) DO UPDATE SET message_id = max(message_id, excluded.message_id)`,
  )
  const newerFromPeople = db.query<{ id: string; role: string; created_at: string }, [string, string]>(
    `SELECT id, role, created_at FROM messages
     WHERE conversation_seq = (SELECT seq FROM conversations WHERE id = ?) AND id > ? AND role IN ('visitor', 'agent') ORDER BY rowid LIMIT 20`,
  )
  const messageIn = db.query<{ id: string }, [string, string]>(
    'SELECT id FROM messages WHERE id = ? AND conversation_seq = (SELECT seq FROM conversations WHERE id = ?)',
  )
  const detailTimes = db.query<{ key: string; set_at: string }, [string]>('SELECT key, set_at FROM desk_contact_detail_times WHERE contact_id = ?')
  const earlier = db.query<{ id: string; status: string; channel: string; created_at: string; last_message_at: string }, [string, string]>(
    `SELECT id, status, channel, created_at, last_message_at FROM conversations
     WHERE contact_id = ? AND id <> ? ORDER BY created_at DESC, id DESC LIMIT 20`,
  )
  const savedReplies = db.query<SavedReplyRow, [string]>('SELECT * FROM desk_saved_replies WHERE workspace_id = ? ORDER BY shortcut COLLATE NOCASE')
  const savedReply = db.query<SavedReplyRow, [string, string]>('SELECT * FROM desk_saved_replies WHERE workspace_id = ? AND id = ?')
  const savedReplyByShortcut = db.query<SavedReplyRow, [string, string]>('SELECT * FROM desk_saved_replies WHERE workspace_id = ? AND shortcut = ? COLLATE NOCASE')
  const insertSavedReply = db.query('INSERT INTO desk_saved_replies (id, workspace_id, shortcut, text, created_at) VALUES ($id, $workspace_id, $shortcut, $text, $created_at)')
  const updateSavedReply = db.query<unknown, [string, string, string, string]>('UPDATE desk_saved_replies SET shortcut = ?, text = ?, updated_at = ? WHERE id = ?')
  const deleteSavedReply = db.query<unknown, [string, string]>('DELETE FROM desk_saved_replies WHERE workspace_id = ? AND id = ?')
  const userIn = db.query<{ id: string; display_name: string }, [string, string]>(
    'SELECT id, display_name FROM users WHERE workspace_id = ? AND id = ? AND disabled_at IS NULL',
  )
  // Whether the widget verifies identities (a signed identify): the secret itself is never read out.
  const integration = db.query<{ id: string; name: string; type: string; verifies_identity: number }, [string]>(
    "SELECT id, name, type, json_extract(secrets, '$.identity_secret') IS NOT NULL AS verifies_identity FROM integrations WHERE id = ?",
  )
  const firstMessage = db.query<{ id: string }, [string]>(
    'SELECT id FROM messages WHERE conversation_seq = (SELECT seq FROM conversations WHERE id = ?) ORDER BY rowid LIMIT 1',
  )
  const chatbotName = db.query<{ name: string }, [string]>('SELECT name FROM chatbots WHERE id = ?')
  const flowName = db.query<{ name: string }, [string]>('SELECT name FROM flows WHERE id = ?')
  const workspaceOfChatbot = db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?')

  const visitorPage = db.query<{ page_url: string | null; user_agent: string | null; address: string | null }, [string]>(
    'SELECT page_url, user_agent, address FROM desk_web_visitors WHERE contact_id = ?',
  )
  const saveVisitorPage = db.query<unknown, [string, string | null, string | null, string, string | null]>(
    `INSERT INTO desk_web_visitors (contact_id, page_url, user_agent, seen_at, address) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (contact_id) DO UPDATE SET page_url = excluded.page_url, user_agent = excluded.user_agent, seen_at = excluded.seen_at, address = excluded.address`,
  )

  return {
    visitorPage: (contactId: string) => visitorPage.get(contactId) ?? undefined,
    saveVisitorPage: (contactId: string, pageUrl: string | null, userAgent: string | null, at: string, address: string | null = null) =>
      saveVisitorPage.run(contactId, pageUrl, userAgent, at, address),
    thread: (workspaceId: string, conversationId: string) => thread.get(conversationId, workspaceId) ?? undefined,
    assign: (conversationId: string, assigneeId: string | null, at: string) => assign.run(assigneeId, assigneeId ? at : null, conversationId),
    insertEvent: (row: Omit<EventRow, 'id'>) => (insertEvent.get(row.conversation_id, row.kind, row.at, row.actor_id, row.actor_name, row.data) as { id: number }).id,
    attributeStatusEvent: (conversationId: string, actorId: string | null, actorName: string | null) => attribute.run(actorId, actorName, conversationId),
    events: (conversationId: string) => eventsOf.all(conversationId),
    lastHandoff: (conversationId: string) => lastHandoff.get(conversationId) ?? undefined,
    insertNote: (row: NoteRow) => insertNote.run({ ...row }),
    notes: (conversationId: string) => notesOf.all(conversationId),
    markRead: (userId: string, conversationId: string, messageId: string) => markRead.run(userId, conversationId, messageId),
    /** Visitor and agent messages stored after `messageId` (at most 20): what a stale view missed. */
    newerFromPeople: (conversationId: string, messageId: string) => newerFromPeople.all(conversationId, messageId),
    hasMessage: (conversationId: string, messageId: string) => messageIn.get(messageId, conversationId) !== null,
    detailTimes: (contactId: string) => new Map(detailTimes.all(contactId).map((row) => [row.key, row.set_at])),
    earlierConversations: (contactId: string, conversationId: string) => earlier.all(contactId, conversationId),
    integration: (id: string) => integration.get(id) ?? undefined,
    firstMessageId: (conversationId: string) => firstMessage.get(conversationId)?.id ?? null,
    chatbotName: (id: string) => chatbotName.get(id)?.name ?? '',
    flowName: (id: string) => flowName.get(id)?.name ?? null,
    workspaceOfChatbot: (id: string) => workspaceOfChatbot.get(id)?.workspace_id ?? null,
    activeUser: (workspaceId: string, userId: string) => userIn.get(workspaceId, userId) ?? undefined,
    savedReplies: (workspaceId: string) => savedReplies.all(workspaceId),
    savedReply: (workspaceId: string, id: string) => savedReply.get(workspaceId, id) ?? undefined,
    savedReplyByShortcut: (workspaceId: string, shortcut: string) => savedReplyByShortcut.get(workspaceId, shortcut) ?? undefined,
    insertSavedReply: (row: Omit<SavedReplyRow, 'updated_at'>) => insertSavedReply.run({ ...row }),
    updateSavedReply: (id: string, shortcut: string, text: string, at: string) => updateSavedReply.run(shortcut, text, at, id),
    deleteSavedReply: (workspaceId: string, id: string) => deleteSavedReply.run(workspaceId, id).changes > 0,
  }
}
