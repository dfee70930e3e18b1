import type { WriteBatcher } from '../db/write-batcher.ts'
import type { ReadMark } from '../protocol/widget-protocol.ts'
import type { Clock } from '../support/clock.ts'
import type { ConversationRef, EventBus } from '../events/domain-events.ts'
import type { Reader, ReadStore } from './read-store.ts'

interface Deps {
  reads: ReadStore
  batch: WriteBatcher
  events: EventBus
  now: Clock
}

export type ReadService = ReturnType<typeof readService>

/**
 * "Seen" marks: how far the visitor has read the answers, and how far the team (the bot
 * answering, or an agent) has read the visitor's messages. A mark only moves forward and
 * always names a message of the conversation; each move is announced once stored.
 */
export function readService({ reads, batch, events, now }: Deps) {
  // The store keeps marks it read; a rolled-back batch or a cascading delete changes rows behind it.
  events.on('database.rolled_back', reads.forgetCached)
  events.on('chatbot.removed', reads.forgetCached)
  // Marks written in the open batch are read back through the store (its cache follows its
  // writes), so a second mark in the same turn compares with them, and a rolled-back batch
  // takes them along.
  const current = (conversationId: string) => reads.of(conversationId)

  return {
    of: current,

    isMessageOf: reads.isMessageOf,

    /** The conversation's newest message, what "read everything" reaches (null: none yet). */
    newest: reads.newest,

    /** Moves the reader's mark to `upTo` (a message of the conversation) unless it is there or past it. */
    mark(conversation: ConversationRef, reader: Reader, upTo: string): ReadMark | null {
      const before = current(conversation.id)[reader]
      if (before && before.up_to >= upTo) return null
      const mark: ReadMark = { up_to: upTo, at: now() }
      batch.run(
        () => reads.advance(conversation.id, reader, mark),
        () => events.emit('conversation.read', { conversation, reader, ...mark }),
      )
      return mark
    },
  }
}
