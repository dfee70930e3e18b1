import type { TurnWriter } from '../conversations/service.ts'
import type { DeskStore } from './store.ts'

/**
 * The desk's share of a turn: who waits for a person since when (desk_threads.waiting_since).
 * In a handed-off conversation a person's message (an agent's, from the desk or the API)
 * ends the wait, and the visitor's first message after it starts one; a visitor already
 * waiting keeps their earlier start. Decided here in memory, so a turn with the bot (most of
 * them) writes nothing and reads nothing: a trigger on messages cost every turn 13 % more
 * SQLite time (bench:writes, same run). Status changes start and end waits in
 * migration 21's trigger, written before the turn's messages.
 */
export function waitTurnWriter(store: Pick<DeskStore, 'setWait'>): TurnWriter {
  return {
    writesFor({ conversation, messages }) {
      if (conversation.status !== 'handoff') return null
      const lastReply = messages.findLastIndex((message) => message.role === 'agent')
      const firstAfter = messages.find((message, index) => index > lastReply && message.role === 'visitor')
      if (lastReply < 0 && !firstAfter) return null
      // Answered in this turn: the wait starts again only with a visitor's message after the reply.
      if (lastReply >= 0) return () => store.setWait(conversation.id, firstAfter?.created_at ?? null, false)
      return () => store.setWait(conversation.id, firstAfter!.created_at, true)
    },
  }
}
