import type { Database } from 'bun:sqlite'
import { RowCache } from '../db/row-cache.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Content, Role } from '../protocol/widget-protocol.ts'
import type { Message } from './model.ts'

/** A `messages` row as SQLite gives it. */
export interface MessageRow {
  id: string
  conversation_id: string
  role: Role
  client_id: string | null
  author: string | null
  author_avatar_url: string | null
  content: string
  created_at: string
}

/** Messages are indexed by their conversation's small integer `seq` (migration 8). */
const SEQ_OF = (idParameter: string) => `SELECT seq FROM conversations WHERE id = ${idParameter}`
/**
 * A conversation's messages are read in rowid order, which is id order (migration 9). A
 * cursor id becomes the rowid of the first message at or past it, so an id that is not stored
 * still cuts where it would sort.
 */
const FIRST_ROWID_AFTER = 'SELECT rowid FROM messages WHERE id > ? ORDER BY id LIMIT 1'
const FIRST_ROWID_FROM = 'SELECT rowid FROM messages WHERE id >= ? ORDER BY id LIMIT 1'
const BEYOND_EVERY_ROWID = '9223372036854775807'

/** Conversations whose client ids are kept in memory: every visitor message is checked for a resend. */
const CONVERSATIONS_WITH_KNOWN_CLIENT_IDS = 5000
/** The newest client ids kept per conversation: what a widget resends after a reconnect is among them. */
export const CLIENT_IDS_KEPT = 64

/** Client ids read when a conversation is first looked at, to fill its filter; past it, no filter. */
const FILTERED_CLIENT_IDS_LIMIT = 2048

/**
 * A conversation's newest client ids; `all` while no stored one was left out. `filter` (a
 * Bloom filter, 2,048 bits) holds every client id the conversation stored, so that once it has
 * more than CLIENT_IDS_KEPT a new message is still told from a resend without a query in most
 * cases: a miss is certain, a hit (or a false positive) is looked up. Null for a conversation
 * with more than FILTERED_CLIENT_IDS_LIMIT when first looked at: every id it does not keep is
 * looked up.
 */
interface KnownClientIds {
  ids: Set<string>
  all: boolean
  filter: Uint32Array | null
}

const FILTER_WORDS = 64
const FILTER_BITS = FILTER_WORDS * 32
let firstHash = 0
let secondHash = 0
/** Two 32-bit hashes of a text (FNV-1a and a murmur-style mix), for the filter's three bits. */
function hashText(text: string): void {
  let a = 0x811c9dc5
  let b = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b ^ code, 0x5bd1e995)
    b ^= b >>> 13
  }
  firstHash = a >>> 0
  secondHash = (b | 1) >>> 0
}
function addToFilter(filter: Uint32Array, text: string): void {
  hashText(text)
  for (let i = 0; i < 3; i++) {
    const bit = (firstHash + i * secondHash) % FILTER_BITS
    filter[bit >>> 5] = (filter[bit >>> 5] as number) | (1 << (bit & 31))
  }
}
function filterMayHold(filter: Uint32Array, text: string): boolean {
  hashText(text)
  for (let i = 0; i < 3; i++) {
    const bit = (firstHash + i * secondHash) % FILTER_BITS
    if (((filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false
  }
  return true
}

export type MessageStore = ReturnType<typeof messageStore>

export function messageStore(db: Database) {
  const insert = db.query<unknown, [string, string, string, Role, string | null, string | null, string | null, string, string]>(
    `INSERT INTO messages (id, conversation_id, conversation_seq, role, client_id, author, author_avatar_url, content, created_at)
     VALUES (?, ?, (${SEQ_OF('?')}), ?, ?, ?, ?, ?, ?)`,
  )
  // A turn's usual two messages (the visitor's and the bot's answer) in one statement.
  const insertTwo = db.query<unknown, (string | null)[]>(
    `INSERT INTO messages (id, conversation_id, conversation_seq, role, client_id, author, author_avatar_url, content, created_at)
     VALUES (?1, ?2, (${SEQ_OF('?2')}), ?3, ?4, ?5, ?6, ?7, ?8), (?9, ?2, (${SEQ_OF('?2')}), ?10, ?11, ?12, ?13, ?14, ?15)`,
  )
  const byClientId = db.query<MessageRow, [string, string]>(
    `SELECT * FROM messages WHERE conversation_seq = (${SEQ_OF('?')}) AND client_id = ?`,
  )
  const latest = db.query<MessageRow, [string, number]>(
    `SELECT * FROM messages WHERE conversation_seq = (${SEQ_OF('?')}) ORDER BY rowid DESC LIMIT ?`,
  )
  const after = db.query<MessageRow, [string, string, number]>(
    `SELECT * FROM messages WHERE conversation_seq = (${SEQ_OF('?')}) AND rowid >= (${FIRST_ROWID_AFTER}) ORDER BY rowid LIMIT ?`,
  )
  const before = db.query<MessageRow, [string, string, number]>(
    `SELECT * FROM messages WHERE conversation_seq = (${SEQ_OF('?')})
       AND rowid < coalesce((${FIRST_ROWID_FROM}), ${BEYOND_EVERY_ROWID}) ORDER BY rowid DESC LIMIT ?`,
  )
  const page = db.query<MessageRow, [string, number, number]>(
    `SELECT * FROM messages WHERE conversation_seq = (${SEQ_OF('?')}) ORDER BY rowid LIMIT ? OFFSET ?`,
  )
  const count = db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM messages WHERE conversation_seq = (${SEQ_OF('?')})`)
  const clientIds = db.query<{ client_id: string }, [string, number]>(
    `SELECT client_id FROM messages WHERE conversation_seq = (${SEQ_OF('?')}) AND client_id IS NOT NULL ORDER BY rowid DESC LIMIT ?`,
  )
  // A conversation's newest stored client ids, once read: a new message is told from a resend
  // without a query while the conversation has no more than CLIENT_IDS_KEPT of them (past
  // that, an id not among the newest is looked up). Memory grows with conversations, not with
  // their messages. The set holds every id it was given and kept (an insert rolled back with
  // its batch stays in it), so a hit is confirmed by the database.
  const knownClientIds = new RowCache<KnownClientIds>(CONVERSATIONS_WITH_KNOWN_CLIENT_IDS)
  const clientIdsOf = (conversationId: string): KnownClientIds =>
    knownClientIds.through(conversationId, () => {
      const rows = clientIds.all(conversationId, FILTERED_CLIENT_IDS_LIMIT + 1)
      const ids = new Set(rows.slice(0, CLIENT_IDS_KEPT).reverse().map((row) => row.client_id))
      let filter: Uint32Array | null = null
      if (rows.length > CLIENT_IDS_KEPT && rows.length <= FILTERED_CLIENT_IDS_LIMIT) {
        filter = new Uint32Array(FILTER_WORDS)
        for (const row of rows) addToFilter(filter, row.client_id)
      }
      return { ids, all: rows.length <= CLIENT_IDS_KEPT, filter }
    }) as KnownClientIds

  const knowClientId = (message: Message): void => {
    const clientId = message.client_id
    if (clientId === undefined || clientId === null) return
    knownClientIds.update(message.conversation_id, (known) => {
      known.ids.add(clientId)
      if (known.ids.size <= CLIENT_IDS_KEPT) return
      if (known.all) {
        // The kept ids were every id: the filter starts with all of them.
        known.filter = new Uint32Array(FILTER_WORDS)
        for (const id of known.ids) addToFilter(known.filter, id)
      } else if (known.filter) addToFilter(known.filter, clientId)
      known.ids.delete(known.ids.values().next().value as string)
      known.all = false
    })
  }

  const insertOne = (message: Message): void => {
    const { id, conversation_id, role } = message
    insert.run(id, conversation_id, conversation_id, role, message.client_id ?? null, message.author ?? null, message.author_avatar_url ?? null, JSON.stringify(message.content), message.created_at)
    knowClientId(message)
  }

  return {
    insert: insertOne,
    /** One conversation's messages of one turn, in order (two in one statement). */
    insertAll(turn: readonly Message[]): void {
      const [first, second] = turn
      if (turn.length !== 2 || !first || !second || first.conversation_id !== second.conversation_id) {
        for (const message of turn) insertOne(message)
        return
      }
      insertTwo.run(
        first.id, first.conversation_id, first.role, first.client_id ?? null, first.author ?? null, first.author_avatar_url ?? null, JSON.stringify(first.content), first.created_at,
        second.id, second.role, second.client_id ?? null, second.author ?? null, second.author_avatar_url ?? null, JSON.stringify(second.content), second.created_at,
      )
      knowClientId(first)
      knowClientId(second)
    },
    /** A conversation opened now has no client ids yet: its first message needs no query to tell. */
    opened(conversationId: string): void {
      knownClientIds.set(conversationId, { ids: new Set(), all: true, filter: null })
    },
    findByClientId(conversationId: string, clientId: string): Message | undefined {
      const known = clientIdsOf(conversationId)
      if (!known.ids.has(clientId) && (known.all || (known.filter && !filterMayHold(known.filter, clientId)))) return undefined
      return toMessage(byClientId.get(conversationId, clientId))
    },
    /** The newest `limit` messages, oldest first, and whether older ones exist. */
    latest(conversationId: string, limit: number): { messages: Message[]; hasMore: boolean } {
      const rows = latest.all(conversationId, limit + 1)
      return { messages: rows.slice(0, limit).reverse().map(toMessage) as Message[], hasMore: rows.length > limit }
    },
    after: (conversationId: string, id: string, limit: number) => after.all(conversationId, id, limit).map(toMessage) as Message[],
    before(conversationId: string, id: string, limit: number): { messages: Message[]; hasMore: boolean } {
      const rows = before.all(conversationId, id, limit + 1)
      return { messages: rows.slice(0, limit).reverse().map(toMessage) as Message[], hasMore: rows.length > limit }
    },
    list(conversationId: string, range: Page): PageOf<Message> {
      return {
        items: page.all(conversationId, range.limit, range.offset).map(toMessage) as Message[],
        total: count.get(conversationId)?.n ?? 0,
      }
    },
  }
}

/** A stored row as the message the API and the widget show. */
export function toMessage(row: MessageRow | null): Message | undefined {
  if (!row) return undefined
  const message: Message = {
    id: row.id,
    conversation_id: row.conversation_id,
    role: row.role,
    content: JSON.parse(row.content) as Content,
    created_at: row.created_at,
  }
  if (row.client_id !== null) message.client_id = row.client_id
  if (row.author !== null) message.author = row.author
  if (row.author_avatar_url) message.author_avatar_url = row.author_avatar_url
  return message
}
