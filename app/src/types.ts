import type { ChatMessage, Content, ConversationStatus } from '../../server/protocol/widget-protocol.ts'

export type { ChatMessage, Content, ConversationStatus }

export interface User {
  id: string
  email: string
  display_name: string
  role: 'admin' | 'agent'
  status: 'invited' | 'active' | 'disabled'
  created_at: string
  updated_at: string | null
}

export interface Me {
  user: User
  workspace_id: string
  session: { created_at: string; expires_at: string }
}

export interface Contact {
  id: string
  external_id: string | null
  details: Record<string, string | number | boolean>
  created_at: string
  updated_at: string | null
}

export interface Conversation {
  id: string
  chatbot_id: string
  contact_id: string
  channel: 'web' | 'chatapp' | 'rest-api'
  integration_id: string | null
  flow_id: string | null
  flow_version: number | null
  status: ConversationStatus
  created_at: string
  updated_at: string | null
  last_message_at: string
  contact?: Contact
}

export interface Chatbot {
  id: string
  name: string
}

export interface Page<T> {
  items: T[]
  has_more?: boolean
  next_cursor?: string | null
}
