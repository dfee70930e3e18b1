import type { TurnRecord, TurnWriter } from '../conversations/service.ts'
import { RowCache } from '../db/row-cache.ts'
import type { EventBus } from '../events/domain-events.ts'
import { deskEvent } from './desk-event.ts'
import type { DeskFeed } from './feed.ts'
import type { DeskStore } from './store.ts'
import { turnWait } from './turn-wait.ts'

/** Conversations known to have messages, so that a turn's first messages are told without a query. */
const CONVERSATIONS_KNOWN_STARTED = 10_000

interface Deps {
  feed: DeskFeed
  store: DeskStore
  events: EventBus
}

/**
 * The desk's share of every turn: its messages (and "opened" for a conversation's first
 * ones), a status change and a wait that starts or ends (turn-wait.ts: desk_threads.waiting_since
 * and a 'waiting' change) are written in the turn's own unit, so a stored turn costs one
 * commit, the desk's live update included, and the desk hears of it exactly when the widget
 * does. The entries are worked out before the unit (which workspace,
 * whether the conversation already had messages); a status change's timeline event is read
 * at the end of the task that made it, still in the same batch, so that the person who acted
 * (written just after the turn, desk/service.ts) is in it.
 */
export function deskTurnFeed({ feed, store, events }: Deps): TurnWriter {
  // A chatbot never changes workspace: remembered once read.
  const workspaces = new Map<string, string>()
  events.on('chatbot.removed', ({ chatbotId }) => void workspaces.delete(chatbotId))
  const started = new RowCache<true>(CONVERSATIONS_KNOWN_STARTED)
  events.on('database.rolled_back', () => started.clear())

  const workspaceOf = (chatbotId: string): string | null => {
    let workspaceId = workspaces.get(chatbotId)
    if (workspaceId === undefined) {
      workspaceId = store.workspaceOfChatbot(chatbotId) ?? undefined
      if (workspaceId) workspaces.set(chatbotId, workspaceId)
    }
    return workspaceId ?? null
  }

  /** Whether these are the conversation's first messages: it is new to every list. */
  const opens = ({ conversation, messages, previousStatus }: TurnRecord): boolean => {
    if (messages.length === 0 || started.get(conversation.id)) return false
    const first = previousStatus === null || store.firstMessageId(conversation.id) === null
    started.set(conversation.id, true)
    return first
  }

  return {
    writesFor(turn) {
      const { conversation, messages, previousStatus } = turn
      const statusChanged = previousStatus !== null && conversation.status !== previousStatus
      if (messages.length === 0 && !statusChanged) return null
      const workspaceId = workspaceOf(conversation.chatbot_id)
      if (!workspaceId) return null
      const opened = opens(turn)
      const wait = turnWait(turn)
      const ref = { conversation_id: conversation.id, chatbot_id: conversation.chatbot_id }
      return () => {
        if (wait) store.setWait(conversation.id, wait.since, wait.keepEarlier)
        if (opened) {
          const thread = store.thread(workspaceId, conversation.id)
          if (thread) feed.publish(workspaceId, { type: 'conversation', ...ref, change: 'opened', status: thread.status, assignee_id: null })
        }
        for (const message of messages) feed.publish(workspaceId, { type: 'message', ...ref, message })
        if (wait) {
          // Moves the conversation in or out of every desk's Waiting view, which may not show it yet.
          // A visitor already waiting keeps their start: nothing changed, nothing to tell.
          const thread = store.thread(workspaceId, conversation.id)
          const changed = thread && (!wait.keepEarlier || thread.waiting_since === wait.since)
          if (changed) feed.publish(workspaceId, { type: 'conversation', ...ref, change: 'waiting', status: thread.status, assignee_id: thread.assignee_id, waiting_since: thread.waiting_since })
        }
        if (!statusChanged) return
        queueMicrotask(() => {
          const thread = store.thread(workspaceId, conversation.id)
          feed.publish(workspaceId, { type: 'conversation', ...ref, change: 'status', status: conversation.status, assignee_id: thread?.assignee_id ?? null })
          const last = store.events(conversation.id).at(-1)
          if (last) feed.publish(workspaceId, { type: 'timeline', conversation_id: conversation.id, event: deskEvent(last) })
        })
      }
    },
  }
}
