import type { TurnRecord } from '../conversations/service.ts'

/** How a turn moves a handed-off conversation's wait: from `since` (null: nobody waits); `keepEarlier` keeps a wait already running. */
export interface WaitChange {
  since: string | null
  keepEarlier: boolean
}

/**
 * Who waits for a person since when (desk_threads.waiting_since), as a turn changes it. In a
 * handed-off conversation a person's message (an agent's, from the desk or the API) ends the
 * wait, and the visitor's first message after it starts one; a visitor already waiting keeps
 * their earlier start. Decided in memory, so a turn with the bot (most of them) changes no
 * wait and costs no read: a trigger on messages cost every turn 13 % more SQLite time
 * (bench:writes, same run). Status changes start and end waits in migration 21's trigger,
 * written before the turn's messages.
 */
export function turnWait({ conversation, messages }: Pick<TurnRecord, 'conversation' | 'messages'>): WaitChange | null {
  if (conversation.status !== 'handoff') return null
  const lastReply = messages.findLastIndex((message) => message.role === 'agent')
  const firstAfter = messages.find((message, index) => index > lastReply && message.role === 'visitor')
  if (lastReply < 0 && !firstAfter) return null
  // Answered in this turn: the wait starts again only with a visitor's message after the reply.
  if (lastReply >= 0) return { since: firstAfter?.created_at ?? null, keepEarlier: false }
  return { since: firstAfter!.created_at, keepEarlier: true }
}
