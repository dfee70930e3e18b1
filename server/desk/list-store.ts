import type { Database } from 'bun:sqlite'
import type { Channel } from '../conversations/model.ts'
import { CONVERSATION_OF_KEY } from './message-search-store.ts'
import type { RatingFilter, View } from './model.ts'

/** Where a page of a list starts: after this conversation (and, waiting, this start of the wait). */
export interface ListPosition {
  seq: number
  waitingSince?: string
}

export interface ListFilter {
  view: View
  workspaceId: string
  /** The signed-in person: "mine", and their read marks. */
  personId: string | null
  chatbotId?: string
  channel?: Channel
  rating?: RatingFilter
  /** FTS5 queries, already made safe (search-query.ts); null when not searching that source. */
  contactMatch?: string | null
  messageMatch?: string | null
  /** The conversations (seq) among whose the message search looks, instead of every match. */
  messageSeqs?: number[]
  /** A search's text folded as label names are (labels/store.ts): labels whose names begin with it. */
  labelKey?: string | null
  /** Only conversations carrying this label. */
  labelId?: string
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
  waiting_since: string | null
  assignee_id: string | null
  assignee_name: string | null
  contact_id: string
  external_id: string | null
  details: string
  last_id: string | null
  last_role: string | null
  last_content: string | null
  last_at: string | null
  last_author: string | null
  rating_scale: 'thumbs' | 'stars' | null
  rating_score: number | null
  rating_comment: string | null
  rating_at: string | null
  last_visitor_id: string | null
  read_id: string | null
  /** JSON: [{id, name, color}], by name. */
  labels: string
}

const ROW = `
  SELECT p.seq, c.id, c.chatbot_id, b.name AS chatbot_name, c.channel, c.integration_id, p.status, c.created_at,
         c.last_message_at, p.handoff_at, p.waiting_since, p.assignee_id, u.display_name AS assignee_name,
         c.contact_id, ct.external_id, ct.details,
         l.id AS last_id, l.role AS last_role, l.content AS last_content, l.created_at AS last_at, l.author AS last_author,
         cr.scale AS rating_scale, cr.score AS rating_score, cr.comment AS rating_comment, cr.created_at AS rating_at,
         (SELECT v.id FROM messages v WHERE v.conversation_seq = p.seq AND v.role = 'visitor' ORDER BY v.rowid DESC LIMIT 1) AS last_visitor_id,
         r.message_id AS read_id,
         (SELECT json_group_array(json_object('id', lb.id, 'name', lb.name, 'color', lb.color) ORDER BY lb.name_key)
            FROM conversation_labels cl JOIN labels lb ON lb.id = cl.label_id WHERE cl.conversation_id = p.conversation_id) AS labels
  FROM page p
  JOIN conversations c ON c.id = p.conversation_id
  JOIN chatbots b ON b.id = p.chatbot_id
  JOIN contacts ct ON ct.id = c.contact_id
  LEFT JOIN users u ON u.id = p.assignee_id
  LEFT JOIN messages l ON l.rowid = (SELECT max(rowid) FROM messages WHERE conversation_seq = p.seq)
  LEFT JOIN desk_reads r ON r.user_id = $person AND r.conversation_id = p.conversation_id
  LEFT JOIN conversation_ratings cr ON p.rating IS NOT NULL AND cr.conversation_id = p.conversation_id`

export type ListStore = ReturnType<typeof listStore>

/** The workspace's labels whose folded names begin with the search's text. */
const LABELS_BEGINNING = 'SELECT lb.id FROM labels lb WHERE lb.workspace_id = $workspace AND substr(lb.name_key, 1, length($label_key)) = $label_key'

/** The SQL of one page of a list, and its parameters. */
export function listQuery(filter: ListFilter): { sql: string; params: Record<string, string | number | null> } {
  const where: string[] = []
  const params: Record<string, string | number | null> = { person: filter.personId, limit: filter.limit }
  let order = 't.seq DESC'
  switch (filter.view) {
    case 'waiting':
      // status too: a chatbot's own index (chatbot, status, seq) then finds only its handoffs.
      where.push('t.workspace_id = $workspace', "t.status = 'handoff'", 't.waiting_since IS NOT NULL')
      order = 't.waiting_since, t.seq'
      if (filter.after) {
        where.push('(t.waiting_since, t.seq) > ($after_at, $after_seq)')
        params.after_at = filter.after.waitingSince ?? ''
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
  if (filter.rating !== undefined) {
    where.push(filter.rating === 'any' ? 't.rating IS NOT NULL' : 't.rating = $rating')
    if (filter.rating !== 'any') params.rating = filter.rating
  }
  if (filter.labelId !== undefined) {
    // Probed per row of the view's own index, in its order: the page stops at its end, and the
    // view is never sorted (a label on most conversations would otherwise be read whole first).
    where.push('EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.conversation_id = t.conversation_id AND cl.label_id = $label)')
    params.label = filter.labelId
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
  if (filter.labelKey) {
    found.push(
      `SELECT cc.seq FROM conversations cc WHERE cc.id IN (SELECT cl.conversation_id FROM conversation_labels cl WHERE cl.label_id IN (${LABELS_BEGINNING}))
       OR cc.contact_id IN (SELECT xl.contact_id FROM contact_labels xl WHERE xl.label_id IN (${LABELS_BEGINNING}))`,
    )
    params.label_key = filter.labelKey
  }
  if (filter.messageMatch !== undefined || filter.contactMatch !== undefined || filter.labelKey !== undefined) {
    // A search whose words cannot match anything (too short for the contact index, no letters) finds nothing.
    // UNION ALL: IN makes a set of them anyway, and UNION would sort each part to merge them.
    where.push(found.length > 0 ? `t.seq IN (${found.join(' UNION ALL ')})` : '0')
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
