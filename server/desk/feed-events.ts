import type { Message } from '../conversations/model.ts'
import type { DeskEvent, Note } from './model.ts'

/**
 * What the desk socket sends, numbered (`seq`) and kept for catch-up. A desk applies them to
 * what it shows; `conversation` says a list row changed (fetch it again or patch it).
 */
export type FeedEvent =
  | { type: 'message'; conversation_id: string; chatbot_id: string; message: Message }
  | {
      type: 'conversation'
      conversation_id: string
      chatbot_id: string
      /** waiting: the visitor began to wait for a person, or a person's reply ended the wait; labels: its labels changed (server/labels/). */
      change: 'opened' | 'status' | 'assigned' | 'waiting' | 'labels'
      status: 'bot' | 'handoff' | 'closed'
      assignee_id: string | null
      /** With change 'waiting': since when the visitor waits, or null once answered. */
      waiting_since?: string | null
    }
  | { type: 'timeline'; conversation_id: string; event: DeskEvent }
  | { type: 'note'; conversation_id: string; note: Note }

/** Sent as they happen, not numbered and not kept: a desk that was away has no use for them. */
export type PassingEvent =
  | { type: 'typing'; conversation_id: string; from: 'visitor' | 'agent' | 'bot'; person: { id: string; display_name: string } | null; active: boolean }
  | { type: 'presence'; conversation_id: string; people: { id: string; display_name: string }[] }
