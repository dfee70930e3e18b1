import type { Database } from 'bun:sqlite'
import { STORED_CONVERSATION_COLUMNS, type StoredConversation } from '../../conversations/conversation-store.ts'
import type { Page, PageOf } from '../../http/common-model.ts'
import type { Content } from '../../protocol/widget-protocol.ts'

export interface SendRow {
  delivery_id: string
  chatbot_id: string
  integration_id: string
  conversation_id: string
  message_id: string
  part: number
  adaptation: string | null
  created_at: string
}

export interface InboundRow {
  integration_id: string
  wamid: string
  chatbot_id: string
  conversation_id: string
  message_id: string
  type: string
  sender: string
  profile_name: string | null
  payload: string
  form_response: string | null
  sent_at: string | null
  received_at: string
}

export interface StatusRow {
  integration_id: string
  wamid: string
  status: string
  chatbot_id: string
  at: string
  errors: string | null
  received_at: string
}

export type ChatappStore = ReturnType<typeof chatappStore>

/** The chatapp channel's own rows: what each provider message carries, what the provider delivered, and its status reports. */
export function chatappStore(db: Database) {
  const insertSend = db.query(
    `INSERT INTO chatapp_sends (delivery_id, chatbot_id, integration_id, conversation_id, message_id, part, adaptation, created_at)
     VALUES ($delivery_id, $chatbot_id, $integration_id, $conversation_id, $message_id, $part, $adaptation, $created_at)`,
  )
  const insertInbound = db.query(
    `INSERT INTO chatapp_inbound (integration_id, wamid, chatbot_id, conversation_id, message_id, type, sender, profile_name, payload, form_response, sent_at, received_at)
     VALUES ($integration_id, $wamid, $chatbot_id, $conversation_id, $message_id, $type, $sender, $profile_name, $payload, $form_response, $sent_at, $received_at)`,
  )
  const inboundByWamid = db.query<InboundRow, [string, string]>('SELECT * FROM chatapp_inbound WHERE integration_id = ? AND wamid = ?')
  const insertStatus = db.query(
    `INSERT OR IGNORE INTO chatapp_statuses (integration_id, wamid, status, chatbot_id, at, errors, received_at)
     VALUES ($integration_id, $wamid, $status, $chatbot_id, $at, $errors, $received_at)`,
  )
  const deliveryExists = db.query<{ found: number }, [string, string]>(
    "SELECT 1 AS found FROM outbox WHERE receipt = ? AND integration_id = ? AND kind = 'chatapp'",
  )
  const sentMessage = db.query<{ message_id: string; conversation_id: string; content: string }, [string, string]>(
    `SELECT s.message_id, s.conversation_id, m.content FROM outbox o
     JOIN chatapp_sends s ON s.delivery_id = o.id JOIN messages m ON m.id = s.message_id
     WHERE o.receipt = ? AND o.integration_id = ? AND o.kind = 'chatapp'`,
  )
  const latestConversation = db.query<StoredConversation, [string, string]>(
    `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE contact_id = ? AND channel = 'chatapp' AND integration_id = ?
     ORDER BY created_at DESC, id DESC LIMIT 1`,
  )
  const latestOpenConversation = db.query<StoredConversation, [string, string]>(
    `SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE contact_id = ? AND channel = 'chatapp' AND integration_id = ? AND status != 'closed'
     ORDER BY created_at DESC, id DESC LIMIT 1`,
  )
  const conversationById = db.query<StoredConversation, [string]>(`SELECT ${STORED_CONVERSATION_COLUMNS} FROM conversations WHERE id = ?`)

  return {
    insertSend: (row: SendRow) => void insertSend.run({ ...row }),
    insertInbound: (row: InboundRow) => void insertInbound.run({ ...row }),
    /** What the provider already delivered under this wamid (its webhooks are retried). */
    findInbound: (integrationId: string, wamid: string) => inboundByWamid.get(integrationId, wamid) ?? undefined,
    /** Stores a status report once; answers false for a repeat. */
    insertStatus: (row: StatusRow) => insertStatus.run({ ...row }).changes === 1,
    /** Whether Parley sent a message the provider knows by this wamid. */
    sentByUs: (integrationId: string, wamid: string) => deliveryExists.get(wamid, integrationId) !== null,

    /** The Parley message a provider message (by wamid) carried, while its delivery is kept. */
    sentMessage(integrationId: string, wamid: string): { messageId: string; conversationId: string; content: Content } | undefined {
      const row = sentMessage.get(wamid, integrationId)
      return row ? { messageId: row.message_id, conversationId: row.conversation_id, content: JSON.parse(row.content) as Content } : undefined
    },

    /** The contact's latest conversation on this integration; with `open`, the latest that is not closed. */
    latestConversation: (contactId: string, integrationId: string, open: boolean) =>
      (open ? latestOpenConversation : latestConversation).get(contactId, integrationId) ?? undefined,
    conversation: (id: string) => conversationById.get(id) ?? undefined,

    /** What these deliveries carry (the Parley message, its part, how it was adapted), for those that carry one. */
    sendsOf(deliveryIds: string[]): SendRow[] {
      if (deliveryIds.length === 0) return []
      const params = Object.fromEntries(deliveryIds.map((id, index) => [`d${index}`, id]))
      const marks = Object.keys(params).map((name) => `$${name}`).join(', ')
      return db.query<SendRow, Record<string, string>>(`SELECT * FROM chatapp_sends WHERE delivery_id IN (${marks})`).all(params)
    },

    /** The status reports for these wamids, oldest first. */
    statusesOf(integrationId: string, wamids: string[]): StatusRow[] {
      if (wamids.length === 0) return []
      const marks = wamids.map((_, index) => `$w${index}`).join(', ')
      const params: Record<string, string> = { integration: integrationId }
      for (const [index, wamid] of wamids.entries()) params[`w${index}`] = wamid
      return db
        .query<StatusRow, Record<string, string>>(
          `SELECT * FROM chatapp_statuses WHERE integration_id = $integration AND wamid IN (${marks}) ORDER BY at, received_at, rowid`,
        )
        .all(params)
    },

    /** What the provider delivered to this integration, newest first. */
    inbound(integrationId: string, filter: { conversation_id?: string }, page: Page): PageOf<InboundRow> {
      const clause = filter.conversation_id ? 'integration_id = $integration AND conversation_id = $conversation' : 'integration_id = $integration'
      const params: Record<string, string> = { integration: integrationId }
      if (filter.conversation_id) params.conversation = filter.conversation_id
      const items = db
        .query<InboundRow, Record<string, string | number>>(
          `SELECT * FROM chatapp_inbound WHERE ${clause} ORDER BY received_at DESC, rowid DESC LIMIT $limit OFFSET $offset`,
        )
        .all({ ...params, limit: page.limit, offset: page.offset })
      const total = db.query<{ n: number }, Record<string, string>>(`SELECT count(*) AS n FROM chatapp_inbound WHERE ${clause}`).get(params)?.n ?? 0
      return { items, total }
    },
  }
}
