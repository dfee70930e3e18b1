import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'

/**
 * The shown conversation as a list ordered by time: merging keeps one copy of each message
 * id whether it came from welcome, a live push, a history page or a resync.
 */
export function mergeMessages(shown: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return shown as ChatMessage[]
  const byId = new Map<string, ChatMessage>()
  for (const message of shown) byId.set(message.id, message)
  for (const message of incoming) byId.set(message.id, message)
  return [...byId.values()].sort(byTime)
}

function byTime(a: ChatMessage, b: ChatMessage): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Messages from the chatbot's side that the visitor has not seen: newer than `seenAt`. */
export function countUnread(messages: readonly ChatMessage[], seenAt: string | null): number {
  return messages.filter((message) => message.role !== 'visitor' && (seenAt === null || message.created_at > seenAt)).length
}

/** A client_id for a visitor message: 16 base62 characters from the CSPRNG. */
export function newClientId(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return Array.from(random(new Uint8Array(16)), (byte) => alphabet[byte % 62]).join('')
}
