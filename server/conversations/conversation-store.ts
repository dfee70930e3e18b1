import type { Database } from 'bun:sqlite'
import { RowCache } from '../db/row-cache.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { ConversationStatus } from '../protocol/widget-protocol.ts'
import type { Channel, Conversation } from './model.ts'

const COLUMNS =
  'id, chatbot_id, contact_id, channel, integration_id, flow_id, flow_version, status, created_at, updated_at, last_message_at'
/** What a `StoredConversation` is read from; other stores that read conversations select these. */
export const STORED_CONVERSATION_COLUMNS = `${COLUMNS}, state`

/** A conversation with the engine's saved state, which only the service reads. */
export type StoredConversation = Conversation & { state: string | null }

export interface ConversationFilter {
  status?: ConversationStatus
  channel?: Channel
  contact_id?: string
}

export type ConversationStore = ReturnType<typeof conversationStore>

/** Conversations kept in memory: every message of a chat reads its conversation. */
const CACHED_CONVERSATIONS = 10_000

export function conversationStore(db: Database) {
  const cache = new RowCache<StoredConversation>(CACHED_CONVERSATIONS)
  const insert = db.query(
    `INSERT INTO conversations (${COLUMNS}, state, seq)
     VALUES ($id, $chatbot_id, $contact_id, $channel, $integration_id, $flow_id, $flow_version, $status,
             $created_at, $updated_at, $last_message_at, $state, (SELECT coalesce(max(seq), 0) + 1 FROM conversations))`,
  )
  const byId = db.query<StoredConversation, [string]>(`SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE id = ?`)
  const inChatbot = db.query<StoredConversation, [string, string]>(
    `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE id = ? AND chatbot_id = ?`,
  )
  const latestOfContact = db.query<StoredConversation, [string, string]>(
    `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE contact_id = ? AND channel = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
  )
  // Status is indexed (the list's filter), so a turn that keeps it does not name it.
  const saveTurn = db.query<unknown, [string | null, string, string, string]>(
    'UPDATE conversations SET state = coalesce(?, state), updated_at = ?, last_message_at = ? WHERE id = ?',
  )
  const saveTurnAndStatus = db.query<unknown, [string | null, ConversationStatus, string, string, string]>(
    'UPDATE conversations SET state = coalesce(?, state), status = ?, updated_at = ?, last_message_at = ? WHERE id = ?',
  )

  return {
    insert(row: StoredConversation): void {
      insert.run(row)
      cache.set(row.id, { ...row })
    },
    get(id: string): StoredConversation | undefined {
      const row = cache.through(id, () => byId.get(id) ?? undefined)
      return row && { ...row }
    },
    getInChatbot: (chatbotId: string, id: string) => inChatbot.get(id, chatbotId) ?? undefined,
    /** A contact's latest conversation on one channel: each channel resumes its own. */
    latestOfContact: (contactId: string, channel: Channel) => latestOfContact.get(contactId, channel) ?? undefined,
    /** One statement per turn: the engine's state and the status (each unchanged when null), and times. */
    saveTurn(id: string, state: string | null, status: ConversationStatus | null, at: string, lastMessageAt: string): void {
      if (status === null) saveTurn.run(state, at, lastMessageAt, id)
      else saveTurnAndStatus.run(state, status, at, lastMessageAt, id)
      cache.update(id, (row) => {
        if (state !== null) row.state = state
        if (status !== null) row.status = status
        row.updated_at = at
        row.last_message_at = lastMessageAt
      })
    },
    /** After a rollback or a cascading delete: the next reads go to the database. */
    forgetCached: () => cache.clear(),

    list(chatbotId: string, filter: ConversationFilter, page: Page): PageOf<Conversation> {
      const where = ['chatbot_id = $chatbot_id']
      const params: Record<string, string | number> = { chatbot_id: chatbotId }
      for (const key of ['status', 'channel', 'contact_id'] as const) {
        const value = filter[key]
        if (value !== undefined) {
          where.push(`${key} = $${key}`)
          params[key] = value
        }
      }
      const clause = where.join(' AND ')
      const items = db
        .query<Conversation, Record<string, string | number>>(
          `SELECT ${COLUMNS} FROM conversations WHERE ${clause}
           ORDER BY last_message_at DESC, id DESC LIMIT $limit OFFSET $offset`,
        )
        .all({ ...params, limit: page.limit, offset: page.offset })
      const total = db.query<{ n: number }, Record<string, string | number>>(`SELECT count(*) AS n FROM conversations WHERE ${clause}`).get(params)?.n ?? 0
      return { items, total }
    },
  }
}
