import type { ChatMessage, Content, ConversationRating, ConversationStatus } from '../../server/protocol/widget-protocol.ts'
import type { AppLocale } from '../../server/people/app-locales.ts'

export type { ChatMessage, Content, ConversationRating, ConversationStatus }

export interface User {
  id: string
  email: string
  display_name: string
  role: 'admin' | 'agent'
  status: 'invited' | 'active' | 'disabled'
  /** The app's language the person chose; null follows their browser. */
  locale: AppLocale | null
  created_at: string
  updated_at: string | null
}

export interface Me {
  user: User
  workspace_id: string
  session: { created_at: string; expires_at: string }
}

export interface Person {
  id: string
  display_name: string
}

export type Channel = 'web' | 'chatapp' | 'rest-api'

/** A row of the desk's list (GET /desk/conversations). */
export interface DeskConversation {
  id: string
  chatbot_id: string
  chatbot_name: string
  channel: Channel
  integration_id: string | null
  status: ConversationStatus
  created_at: string
  last_message_at: string
  handoff_at: string | null
  /** Since when the visitor waits for a person (their oldest unanswered message); null once answered. */
  waiting_since: string | null
  waiting_seconds: number | null
  assignee: Person | null
  contact: { id: string; name: string | null; email: string | null; phone: string | null; identified: boolean }
  last_message: { id: string; role: string; author: string | null; preview: string; created_at: string } | null
  rating: ConversationRating | null
  unread: boolean
  /** By name. */
  labels: LabelRef[]
}

export const LABEL_COLORS = ['grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const
export type LabelColor = (typeof LABEL_COLORS)[number]

/** A label as a conversation row carries it. */
export interface LabelRef {
  id: string
  name: string
  color: LabelColor
}

/** A label of the workspace's set (GET /labels). */
export interface Label extends LabelRef {
  created_at: string
  updated_at: string | null
}

export interface DeskEvent {
  id: number
  kind: 'handed_off' | 'handed_back' | 'closed' | 'assigned' | 'unassigned' | 'rated' | 'agent_failed'
  at: string
  actor: Person | null
  data: Record<string, unknown>
}

export interface Note {
  id: string
  conversation_id: string
  author: Person | null
  text: string
  created_at: string
}

export type TimelineItem =
  | { type: 'message'; at: string; message: ChatMessage }
  | { type: 'event'; at: string; event: DeskEvent }
  | { type: 'note'; at: string; note: Note }

export interface Context {
  conversation: {
    id: string
    status: ConversationStatus
    channel: Channel
    created_at: string
    chatbot: { id: string; name: string }
    integration: { id: string; name: string | null; type: string | null } | null
    assignee: Person | null
  }
  contact: {
    id: string
    identity: { kind: 'email' | 'phone'; value: string; verified: boolean } | null
    details: { key: string; value: string | number | boolean; set_at: string | null }[]
    /** The visitor's language (a BCP 47 tag), null when their channel did not say. */
    locale?: string | null
    created_at: string
  }
  visitor: { page_url: string | null; user_agent: string | null; address: string | null } | null
  rating: ConversationRating | null
  earlier_conversations: { id: string; status: ConversationStatus; channel: Channel; created_at: string; last_message_at: string }[]
  flow: { id: string; name: string | null; version: number | null; state: string | null; variables: Record<string, unknown>; at_handoff: boolean } | null
  /** The last failed LLM agent run: why, classified (never the provider's text or a secret). */
  agent_failure?: { at: string; state: string | null; kind: string; message: string; http_status: number | null } | null
}

export interface SavedReply {
  id: string
  shortcut: string
  text: string
}

export interface Chatbot {
  id: string
  name: string
}

export interface Page<T> {
  items: T[]
}
