import type { Database } from 'bun:sqlite'
import type { Channel } from '../conversations/model.ts'
import { CONVERSATION_OF_KEY } from './message-search-store.ts'
import type { View } from './model.ts'

/** Where a page of a list starts: after this conversation (and, waiting, this handoff time). */
export interface ListPosition {
  seq: number
  handoffAt?: string
}

export interface ListFilter {
  view: View
  workspaceId: string
  /** The signed-in person: "mine", and their read marks. */
  personId: string | null
  chatbotId?: string
  channel?: Channel
  /** FTS5 queries, already made safe (search-query.ts); null when not searching that source. */
  contactMatch?: string | null
  messageMatch?: string | null
  /** The conversations (seq) among whose the message search looks, instead of every match. */
  messageSeqs?: number[]
  after?: ListPosition
  /** One conversation's row, whatever the view. */
  conversationId?: string
  limit: number
}

/** A list row as SQLite gives it, before the service shapes it. */
export interface ListRow {
  seq: number
  id: string
  chatbot_id: string
  chatbot_name: string
  channel: Channel
  integration_id: string | null
  status: 'bot' | 'handoff' | 'closed'
  created_at: string
  last_message_at: string
  handoff_at: string | null
  assignee_id: string | null
  assignee_name: string | null
  contact_id: string
  external_id: string | null
  details: string
  last_id: string | null
  last_role: string | null
  last_content: string | null
  last_at: string | null
  last_visitor_id: string | null
  read_id: string | null
}

const ROW = `
  SELECT p.seq, c.id, c.chatbot_id, b.name AS chatbot_name, c.channel, c.integration_id, p.status, c.created_at,
         c.last_message_at, p.handoff_at, p.assignee_id, u.display_name AS assignee_name,
         c.contact_id, ct.external_id, ct.details,
         l.id AS last_id, l.role AS last_role, l.content AS last_content, l.created_at AS last_at,
         (SELECT v.id FROM messages v WHERE v.conversation_seq = p.seq AND v.role = 'visitor' ORDER BY v.rowid DESC LIMIT 1) AS last_visitor_id,
         r.message_id AS read_id
  FROM page p
  JOIN conversations c ON c.id = p.conversation_id
  JOIN chatbots b ON b.id = p.chatbot_id
  JOIN contacts ct ON ct.id = c.contact_id
  LEFT JOIN users u ON u.id = p.assignee_id
  LEFT JOIN messages l ON l.rowid = (SELECT max(rowid) FROM messages WHERE conversation_seq = p.seq)
  LEFT JOIN desk_reads r ON r.user_id = $person AND r.conversation_id = p.conversation_id`

export type ListStore = ReturnType<typeof listStore>

/** The SQL of one page of a list, and its parameters. */
export function listQuery(filter: ListFilter): { sql: string; params: Record<string, string | number | null> } {
  const where: string[] = []
  const params: Record<string, string | number | null> = { person: filter.personId, limit: filter.limit }
  let order = 't.seq DESC'
  switch (filter.view) {
    case 'waiting':
      where.push('t.workspace_id = $workspace', "t.status = 'handoff'")
      order = 't.handoff_at, t.seq'
      if (filter.after) {
        where.push('(t.handoff_at, t.seq) > ($after_at, $after_seq)')
        params.after_at = filter.after.handoffAt ?? ''
      }
      break
    case 'mine':
      where.push('t.assignee_id = $person', 't.is_open = 1', 't.workspace_id = $workspace')
      break
    case 'open':
      where.push('t.workspace_id = $workspace', 't.is_open = 1')
      break
    case 'bot':
    case 'closed':
      where.push('t.workspace_id = $workspace', 't.status = $status')
      params.status = filter.view
      break
  }
  params.workspace = filter.workspaceId
  if (filter.conversationId !== undefined) {
    where.length = 0
    where.push('t.conversation_id = $conversation', 't.workspace_id = $workspace')
    params.conversation = filter.conversationId
    delete params.status
  }
  if (filter.after) {
    params.after_seq = filter.after.seq
    if (filter.view !== 'waiting') where.push('t.seq < $after_seq')
  }
  if (filter.chatbotId !== undefined) {
    where.push('t.chatbot_id = $chatbot')
    params.chatbot = filter.chatbotId
  }
  if (filter.channel !== undefined) {
    where.push('t.channel = $channel')
    params.channel = filter.channel
  }
  const found: string[] = []
  if (filter.messageSeqs) {
    found.push('SELECT value FROM json_each($message_seqs)')
    params.message_seqs = JSON.stringify(filter.messageSeqs)
  } else if (filter.messageMatch) {
    found.push(`SELECT ${CONVERSATION_OF_KEY('rowid')} FROM desk_message_search WHERE desk_message_search MATCH $message_match`)
    params.message_match = filter.messageMatch
  }
  if (filter.contactMatch) {
    found.push(
      'SELECT cc.seq FROM conversations cc WHERE cc.contact_id IN (SELECT id FROM contacts WHERE rowid IN (SELECT rowid FROM desk_contact_search WHERE desk_contact_search MATCH $contact_match))',
    )
    params.contact_match = filter.contactMatch
  }
  if (filter.messageMatch !== undefined || filter.contactMatch !== undefined) {
    // A search whose words cannot match anything (too short for the contact index, no letters) finds nothing.
    where.push(found.length > 0 ? `t.seq IN (${found.join(' UNION ')})` : '0')
  }
  // With a chatbot filter the chatbot's own index leads: the workspace's would walk every other chatbot's rows.
  const index = filter.chatbotId === undefined || filter.conversationId !== undefined ? '' : filter.view === 'open' || filter.view === 'mine' ? 'INDEXED BY desk_threads_by_chatbot_open' : 'INDEXED BY desk_threads_by_chatbot'
  const sql = `WITH page AS (SELECT * FROM desk_threads t ${index} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $limit) ${ROW} ORDER BY ${order.replaceAll('t.', 'p.')}`
  return { sql, params }
}

/** Message matches a search reads first, newest conversation first: a common word's first page is among them. */
export const NEWEST_MATCHES = 2000

/**
 * The desk's conversation lists, workspace-wide. Each view walks one index of desk_threads
 * in its own order and stops at the page's end (cursor paging, no OFFSET), so the first page
 * costs about the same with 100 or 100,000 conversations; the page's rows are then joined to
 * their conversation, contact and last message.
 *
 * A message search in a view of newest conversations first looks among the conversations of
 * the newest NEWEST_MATCHES matches only (the index is in conversation order, migration 24):
 * every match of a conversation newer than the oldest of them is among them, so a full page
 * none of whose rows is older is exactly the page all matches would give. Otherwise (a word
 * too rare to fill the page there, the waiting view's other order) every match is read.
 */
export function listStore(db: Database) {
  const newestMatches = db.query<{ seq: number }, [string, number]>(
    `SELECT ${CONVERSATION_OF_KEY('rowid')} AS seq FROM desk_message_search WHERE desk_message_search MATCH ? ORDER BY rowid DESC LIMIT ?`,
  )
  const run = (filter: ListFilter) => {
    const { sql, params } = listQuery(filter)
    return db.query<ListRow, Record<string, string | number | null>>(sql).all(params)
  }
  return {
    list(filter: ListFilter): ListRow[] {
      if (!filter.messageMatch || filter.view === 'waiting' || filter.conversationId !== undefined) return run(filter)
      const matches = newestMatches.all(filter.messageMatch, NEWEST_MATCHES)
      const seqs = [...new Set(matches.map((match) => match.seq))]
      const rows = run({ ...filter, messageSeqs: seqs })
      const everyMatch = matches.length < NEWEST_MATCHES
      const oldest = seqs.at(-1) ?? 0
      if (everyMatch || (rows.length === filter.limit && (rows.at(-1)?.seq ?? 0) >= oldest)) return rows
      return run(filter)
    },
  }
}
