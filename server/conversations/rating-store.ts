import type { Database } from 'bun:sqlite'
import type { ConversationRating } from '../protocol/widget-protocol.ts'

export type RatingStore = ReturnType<typeof ratingStore>

/** The visitors' ratings of their closed conversations (migration 16): one per conversation. */
export function ratingStore(db: Database) {
  const byConversation = db.query<ConversationRating, [string]>(
    'SELECT scale, score, comment, created_at FROM conversation_ratings WHERE conversation_id = ?',
  )
  const insert = db.query<unknown, [string, string, number, string | null, string]>(
    `INSERT INTO conversation_ratings (conversation_id, scale, score, comment, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (conversation_id) DO NOTHING`,
  )
  return {
    get: (conversationId: string): ConversationRating | null => byConversation.get(conversationId) ?? null,
    /** Kept only when the conversation has none: a second rating never replaces the first. */
    insertOnce(conversationId: string, rating: ConversationRating): void {
      insert.run(conversationId, rating.scale, rating.score, rating.comment, rating.created_at)
    },
  }
}
