import { answeredNow } from '../db/answered-now.ts'
import type { FlowStore } from './store.ts'

/** A chatbot's published meta flow: the name it is registered under at the provider, and its live definition. */
export type MetaFlowLookup = (workspaceId: string, chatbotId: string, flowId: string) => { name: string; definition: Record<string, unknown> } | null

/**
 * The chatapp channel asks for a meta flow inside a turn (its turn writer) and its webhook,
 * both still synchronous: the flows store's answer is read with `answeredNow` until they await
 * (docs/postgres-plan.md). The chatbot is the caller's integration's, so of its workspace.
 */
export function metaFlowLookup(store: Pick<FlowStore, 'liveSnapshot' | 'get'>): MetaFlowLookup {
  return (_workspaceId, chatbotId, flowId) => {
    const live = answeredNow(store.liveSnapshot(flowId))
    if (live?.type !== 'meta' || live.chatbot_id !== chatbotId) return null
    const flow = answeredNow(store.get(chatbotId, flowId))
    return flow ? { name: flow.name, definition: JSON.parse(live.definition) as Record<string, unknown> } : null
  }
}
