import type { Database } from 'bun:sqlite'
import { RowCache } from '../db/row-cache.ts'
import type { ReadMark } from '../protocol/widget-protocol.ts'

export type Reader = 'visitor' | 'team'

export type ReadStore = ReturnType<typeof readStore>

/** Conversations whose marks are kept in memory: every bot answer moves the team's mark. */
const CACHED_CONVERSATIONS = 10_000

/** How far each side has read a conversation (migration 16). */
export function readStore(db: Database) {
  const marks = db.query<ReadMark & { reader: Reader }, [string]>('SELECT reader, up_to, at FROM conversation_reads WHERE conversation_id = ?')
  // Message ids sort in the order they were stored, so "forward" is a string comparison.
  const advance = db.query<unknown, [string, Reader, string, string]>(
    `INSERT INTO conversation_reads (conversation_id, reader, up_to, at) VALUES (?, ?, ?, ?)
     ON CONFLICT (conversation_id, reader) DO UPDATE SET up_to = excluded.up_to, at = excluded.at WHERE excluded.up_to > conversation_reads.up_to`,
  )
  const isMessageOf = db.query<{ found: number }, [string, string]>(
    'SELECT 1 AS found FROM messages WHERE id = ? AND conversation_seq = (SELECT seq FROM conversations WHERE id = ?)',
  )
  const newestOf = db.query<{ id: string }, [string]>(
    'SELECT id FROM messages WHERE conversation_seq = (SELECT seq FROM conversations WHERE id = ?) ORDER BY rowid DESC LIMIT 1',
  )
  const cache = new RowCache<Record<Reader, ReadMark | null>>(CACHED_CONVERSATIONS)
  const read = (conversationId: string) => {
    const found: Record<Reader, ReadMark | null> = { visitor: null, team: null }
    for (const { reader, up_to, at } of marks.all(conversationId)) found[reader] = { up_to, at }
    return found
  }
  return {
    of(conversationId: string): Record<Reader, ReadMark | null> {
      const found = cache.through(conversationId, () => read(conversationId)) as Record<Reader, ReadMark | null>
      return { visitor: found.visitor, team: found.team }
    },
    advance(conversationId: string, reader: Reader, mark: ReadMark): void {
      advance.run(conversationId, reader, mark.up_to, mark.at)
      // As the statement does: a mark only moves forward.
      cache.update(conversationId, (found) => {
        const before = found[reader]
        if (!before || mark.up_to > before.up_to) found[reader] = mark
      })
    },
    /** After a rollback or a cascading delete: the next reads go to the database. */
    forgetCached: () => cache.clear(),
    isMessageOf: (conversationId: string, messageId: string) => isMessageOf.get(messageId, conversationId) !== null,
    /** The conversation's newest message: what "read everything" reaches. */
    newest: (conversationId: string) => newestOf.get(conversationId)?.id ?? null,
  }
}
