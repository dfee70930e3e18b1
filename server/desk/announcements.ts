import type { WriteBatcher } from '../db/write-batcher.ts'
import type { Clock } from '../support/clock.ts'
import type { ConversationRef, EventBus } from '../support/events.ts'
import type { PassingEvent } from './feed-events.ts'
import type { DeskStore } from './store.ts'

interface Deps {
  events: EventBus
  store: DeskStore
  batch: WriteBatcher
  now: Clock
  /** Sends a passing event (typing) to a workspace's open desks. */
  pass: (workspaceId: string, event: PassingEvent) => void
}

/**
 * What the rest of Parley announces, turned into the desk's events: typing passes straight to
 * open desks, a visitor's page is remembered. Stored messages and status changes become
 * numbered feed entries in the turn's own unit (turn-feed.ts). Notes never travel here: they
 * are not messages, and only the desk announces them.
 */
export function deskAnnouncements({ events, store, batch, now, pass }: Deps): () => void {
  // A chatbot never changes workspace: remembered once read.
  const workspaces = new Map<string, string | null>()
  const workspaceOf = (conversation: ConversationRef): string | null => {
    let workspaceId = workspaces.get(conversation.chatbot_id)
    if (workspaceId === undefined) {
      workspaceId = store.workspaceOfChatbot(conversation.chatbot_id)
      if (workspaceId) workspaces.set(conversation.chatbot_id, workspaceId)
    }
    return workspaceId ?? null
  }

  const off = [
    events.on('chatbot.removed', ({ chatbotId }) => void workspaces.delete(chatbotId)),
    events.on('conversation.typing', ({ conversation, active, from, person }) => {
      const workspaceId = workspaceOf(conversation)
      if (workspaceId) pass(workspaceId, { type: 'typing', conversation_id: conversation.id, from, person: person ?? null, active })
    }),
    events.on('visitor.typing', ({ conversation, active }) => {
      const workspaceId = workspaceOf(conversation)
      if (workspaceId) pass(workspaceId, { type: 'typing', conversation_id: conversation.id, from: 'visitor', person: null, active })
    }),
    events.on('visitor.seen', ({ contactId, pageUrl, userAgent, address }) => {
      const at = now()
      batch.run(() => store.saveVisitorPage(contactId, pageUrl, userAgent, at, address))
    }),
  ]
  return () => {
    for (const unsubscribe of off) unsubscribe()
  }
}
