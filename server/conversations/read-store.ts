import type { Database } from 'bun:sqlite'
import { RowCache } from '../db/row-cache.ts'
import type { ReadMark } from '../protocol/widget-protocol.ts'

export type Reader = 'visitor' | 'team'

export type ReadStore = ReturnType<typeof readStore>

/** Conversations whose marks are kept in memory: every bot answer moves the team's mark. */
const CACHED_CONVERSATIONS = 10_000

/** How far each side has read a conversation (migrations 16 and 29). */
export function readStore(db: Database) {
  // The visitor's mark has a row of its own; the team's (moved by every bot answer) is on the
  // conversation's row, which the turn rewrites anyway (migration 29).
  const marks = db.query<{ team_up_to: string | null; team_at: string | null; visitor_up_to: string | null; visitor_at: string | null }, [string]>(
    `SELECT c.team_read_up_to AS team_up_to, c.team_read_at AS team_at, r.up_to AS visitor_up_to, r.at AS visitor_at
       FROM conversations c LEFT JOIN conversation_reads r ON r.conversation_id = c.id AND r.reader = 'visitor' WHERE c.id = ?`,
  )
  // Message ids sort in the order they were stored, so "forward" is a string comparison.
  const advanceVisitor = db.query<unknown, [string, string, string]>(
    `INSERT INTO conversation_reads (conversation_id, reader, up_to, at) VALUES (?, 'visitor', ?, ?)
     ON CONFLICT (conversation_id, reader) DO UPDATE SET up_to = excluded.up_to, at = excluded.at WHERE excluded.up_to > conversation_reads.up_to`,
  )
  const advanceTeam = db.query<unknown, [string, string, string]>(
    'UPDATE conversations SET team_read_up_to = ?2, team_read_at = ?3 WHERE id = ?1 AND (team_read_up_to IS NULL OR team_read_up_to < ?2)',
  )
  const isMessageOf = db.query<{ found: number }, [string, string]>(
    'SELECT 1 AS found FROM messages WHERE id = ? AND conversation_seq = (SELECT seq FROM conversations WHERE id = ?)',
  )
  const newestOf = db.query<{ id: string }, [string]>(
    'SELECT id FROM messages WHERE conversation_seq = (SELECT seq FROM conversations WHERE id = ?) ORDER BY rowid DESC LIMIT 1',
  )
  const cache = new RowCache<Record<Reader, ReadMark | null>>(CACHED_CONVERSATIONS)
  const read = (conversationId: string) => {
    const row = marks.get(conversationId)
    return {
      visitor: row?.visitor_up_to && row.visitor_at ? { up_to: row.visitor_up_to, at: row.visitor_at } : null,
      team: row?.team_up_to && row.team_at ? { up_to: row.team_up_to, at: row.team_at } : null,
    }
  }
  return {
    of(conversationId: string): Record<Reader, ReadMark | null> {
      const found = cache.through(conversationId, () => read(conversationId)) as Record<Reader, ReadMark | null>
      return { visitor: found.visitor, team: found.team }
    },
    advance(conversationId: string, reader: Reader, mark: ReadMark): void {
      const advance = reader === 'team' ? advanceTeam : advanceVisitor
      advance.run(conversationId, mark.up_to, mark.at)
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
