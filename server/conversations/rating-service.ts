import type { WriteBatcher } from '../db/write-batcher.ts'
import type { RatingRefusal } from '../protocol/rating-refusals.ts'
import type { ConversationRating, RatingScale } from '../protocol/widget-protocol.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { ConversationStore } from './conversation-store.ts'
import type { RatingStore } from './rating-store.ts'

export interface RatingInput {
  conversationId: string
  /** The visitor's contact: only their own conversations can be rated. */
  contactId: string | null
  /** The integration's widget_config.rating; null when it offers none. */
  scale: RatingScale | null
  score: number
  comment?: string
}

export type RatingOutcome = { ok: true; rating: ConversationRating } | { ok: false; code: RatingRefusal; message: string }

/** Longest comment kept; the protocol refuses longer ones before they get here. */
export const RATING_COMMENT_MAX_LENGTH = 1000

interface Deps {
  conversations: ConversationStore
  ratings: RatingStore
  batch: WriteBatcher
  now: Clock
  /** Told of each stored rating ('conversation.rated'), for the desk. */
  events?: EventBus
}

export type RatingService = ReturnType<typeof ratingService>

/**
 * The end rating: a visitor rates their own closed conversation once, on the scale the
 * integration offers. A rating written in the open batch is read back through the same
 * connection's transaction, so two tabs rating at once keep the first; a rolled-back batch
 * takes its rating with it (no copy of it is kept in memory to outlive the rollback).
 */
export function ratingService({ conversations, ratings, batch, now, events }: Deps) {
  const current = (conversationId: string) => ratings.get(conversationId)

  return {
    of: current,

    rate(input: RatingInput, onStored: (rating: ConversationRating) => void): RatingOutcome {
      if (input.scale === null) return { ok: false, code: 'rating_off', message: 'this chat does not ask for ratings' }
      const conversation = conversations.get(input.conversationId)
      if (!conversation || conversation.contact_id !== input.contactId) {
        return { ok: false, code: 'unknown_conversation', message: 'no conversation of yours has this id' }
      }
      if (conversation.status !== 'closed') return { ok: false, code: 'conversation_not_closed', message: 'a conversation is rated once it has ended' }
      if (current(conversation.id)) return { ok: false, code: 'already_rated', message: 'this conversation was already rated' }
      const valid = input.scale === 'thumbs' ? input.score === 0 || input.score === 1 : input.score >= 1 && input.score <= 5
      if (!Number.isInteger(input.score) || !valid) {
        return { ok: false, code: 'invalid_rating', message: input.scale === 'thumbs' ? 'score must be 0 (thumbs down) or 1 (thumbs up)' : 'score must be 1 to 5' }
      }
      const comment = input.comment?.trim().slice(0, RATING_COMMENT_MAX_LENGTH) || null
      const rating: ConversationRating = { scale: input.scale, score: input.score, comment, created_at: now() }
      batch.run(
        () => ratings.insertOnce(conversation.id, rating),
        () => {
          onStored(rating)
          events?.emit('conversation.rated', { conversation, rating })
        },
      )
      return { ok: true, rating }
    },
  }
}
