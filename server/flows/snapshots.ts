import type { ConversationFlow } from '../flow-language/conversation-flow-schema.ts'
import type { StoredSnapshot } from './store.ts'

interface SnapshotOf<T extends string, D> {
  flowId: string
  chatbotId: string
  type: T
  version: number
  publishedAt: string
  /** As it was validated at publish time; it never changes. */
  definition: D
}

/** A published, immutable version of a flow: what running conversations follow. */
export type FlowSnapshot =
  | SnapshotOf<'conversation', ConversationFlow>
  | SnapshotOf<'meta', Record<string, unknown>>

export type ConversationSnapshot = Extract<FlowSnapshot, { type: 'conversation' }>

/** Reads a stored version; publishing validated it, so its definition has its type's shape. */
export function toSnapshot(stored: StoredSnapshot): FlowSnapshot {
  const common = { flowId: stored.flow_id, chatbotId: stored.chatbot_id, version: stored.version, publishedAt: stored.published_at }
  const definition = JSON.parse(stored.definition)
  return stored.type === 'conversation'
    ? { ...common, type: 'conversation', definition: definition as ConversationFlow }
    : { ...common, type: 'meta', definition: definition as Record<string, unknown> }
}
