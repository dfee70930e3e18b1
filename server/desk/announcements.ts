import type { WriteBatcher } from '../db/write-batcher.ts'
import type { Clock } from '../support/clock.ts'
import type { ConversationRef, EventBus } from '../events/domain-events.ts'
import { deskEvent } from './desk-event.ts'
import type { DeskFeed } from './feed.ts'
import type { PassingEvent } from './feed-events.ts'
import type { DeskStore } from './store.ts'

interface Deps {
  events: EventBus
  feed: DeskFeed
  store: DeskStore
  batch: WriteBatcher
  now: Clock
  /** Sends a passing event (typing) to a workspace's open desks. */
  pass: (workspaceId: string, event: PassingEvent) => void
}

/**
 * What the rest of Parley announces, turned into the desk's events: typing passes straight to
 * open desks, a visitor's page is remembered, a stored rating's and a failed agent run's
 * timeline events join the feed. Stored messages, status changes and waits become
 * numbered feed entries in the turn's own unit (turn-feed.ts). Notes never travel here: they
 * are not messages, and only the desk announces them.
 */
export function deskAnnouncements({ events, feed, store, batch, now, pass }: Deps): () => void {
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
    events.on('conversation.rated', ({ conversation }) => {
      const workspaceId = workspaceOf(conversation)
      const rated = workspaceId ? store.lastEvent(conversation.id, 'rated') : undefined
      if (workspaceId && rated) feed.publish(workspaceId, { type: 'timeline', conversation_id: conversation.id, event: deskEvent(rated) })
    }),
    events.on('agent.failed', ({ conversation }) => {
      const workspaceId = workspaceOf(conversation)
      const failed = workspaceId ? store.lastAgentFailure(conversation.id) : undefined
      if (workspaceId && failed) feed.publish(workspaceId, { type: 'timeline', conversation_id: conversation.id, event: deskEvent(failed) })
    }),
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
