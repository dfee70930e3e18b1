import type { Database } from 'bun:sqlite'

export type MessageSearchStore = ReturnType<typeof messageSearchStore>

/**
 * What people wrote (visitors and agents): the bot's own lines would match every conversation.
 * A file is found by its name and caption.
 */
const SEARCH_TEXT =
  "coalesce(json_extract(m.content, '$.text'), json_extract(m.content, '$.title'), nullif(trim(coalesce(json_extract(m.content, '$.media.filename'), '') || ' ' || coalesce(json_extract(m.content, '$.media.caption'), '')), ''))"

/**
 * An entry's key: its conversation's seq in the high 32 bits, the message's rowid in the low
 * ones (migration 24), so the index is in the desk lists' order and names the conversation.
 */
export const SEARCH_KEY = '(m.conversation_seq << 32) | (m.rowid & 4294967295)'
/** The conversation (seq) of an entry's key. */
export const CONVERSATION_OF_KEY = (key: string) => `(${key} >> 32)`

/** The desk's message search index (desk_message_search) and the cursor of what it has looked at. */
export function messageSearchStore(db: Database) {
  const cursor = db.query<{ last_rowid: number }, []>('SELECT last_rowid FROM desk_message_search_cursor WHERE id = 1')
  const nextEnd = db.query<{ upto: number | null; scanned: number }, [number, number]>(
    'SELECT max(rowid) AS upto, count(*) AS scanned FROM (SELECT rowid FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?)',
  )
  const index = db.query<unknown, [number, number]>(
    `INSERT INTO desk_message_search (rowid, text)
       SELECT ${SEARCH_KEY}, ${SEARCH_TEXT} FROM messages m
       WHERE m.rowid > ?1 AND m.rowid <= ?2 AND m.role IN ('visitor', 'agent') AND ${SEARCH_TEXT} IS NOT NULL`,
  )
  const advance = db.query<unknown, [number]>('UPDATE desk_message_search_cursor SET last_rowid = ? WHERE id = 1')

  const indexNext = db.transaction((limit: number) => {
    const from = cursor.get()?.last_rowid ?? 0
    const { upto, scanned } = nextEnd.get(from, limit) ?? { upto: null, scanned: 0 }
    if (upto === null) return 0
    index.run(from, upto)
    advance.run(upto)
    return scanned
  })

  return {
    /**
     * Indexes the next `limit` messages after the cursor (the bot's lines are passed over) in
     * a transaction of its own, and answers how many it looked at; `null`, doing nothing,
     * while the connection is inside someone else's transaction (an open write batch).
     */
    indexNext: (limit: number): number | null => (db.inTransaction ? null : indexNext.immediate(limit)),
  }
}
