import type { ConversationFlow } from '../flow-language/conversation-flow-schema.ts'

export interface NeededFacts {
  /** Some branch tests a label the conversation carries. */
  labels: boolean
  /** Some branch tests the chatbot's business hours, or some state hands off (it says otherwise outside them). */
  businessHours: boolean
}

const known = new WeakMap<ConversationFlow, NeededFacts>()

/**
 * Which facts a flow's branches test, so that a turn reads only those (a flow that tests no
 * label costs its turns no read of the conversation's labels). Remembered per published
 * definition, which never changes once loaded.
 */
export function neededFacts(flow: ConversationFlow): NeededFacts {
  const kept = known.get(flow)
  if (kept) return kept
  const needs: NeededFacts = { labels: false, businessHours: false }
  for (const state of Object.values(flow.states)) {
    if (state.handoff) needs.businessHours = true
    for (const rule of state.branch ?? []) {
      if (rule.label !== undefined) needs.labels = true
      if (rule.business_hours !== undefined) needs.businessHours = true
    }
  }
  known.set(flow, needs)
  return needs
}
