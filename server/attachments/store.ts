import type { Database } from 'bun:sqlite'
import type { AttachmentRecord } from './model.ts'

/** A stored attachment's row: the record, and the digest of its address's key. */
export interface AttachmentRow extends AttachmentRecord {
  key_hash: string
}

const COLUMNS = 'id, workspace_id, chatbot_id, conversation_id, key_hash, content_type, byte_size, filename, sha256, uploaded_by, created_at'

export type AttachmentStore = ReturnType<typeof attachmentStore>

/** The attachments table (migration 19); the bytes are read only when a file is served. */
export function attachmentStore(db: Database) {
  const insert = db.query<unknown, [string, string, string, string, string, string, number, string, string, string, string, Uint8Array]>(
    `INSERT INTO attachments (${COLUMNS}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const byId = db.query<AttachmentRow, [string]>(`SELECT ${COLUMNS} FROM attachments WHERE id = ?`)
  const bytesOf = db.query<{ bytes: Uint8Array<ArrayBuffer> }, [string]>('SELECT bytes FROM attachments WHERE id = ?')
  const usage = db.query<{ files: number; bytes: number }, [string]>(
    'SELECT count(*) AS files, coalesce(sum(byte_size), 0) AS bytes FROM attachments WHERE conversation_id = ?',
  )

  return {
    insert(row: AttachmentRow, bytes: Uint8Array): void {
      insert.run(row.id, row.workspace_id, row.chatbot_id, row.conversation_id, row.key_hash, row.content_type, row.byte_size, row.filename, row.sha256, row.uploaded_by, row.created_at, bytes)
    },
    get: (id: string): AttachmentRow | null => byId.get(id) ?? null,
    bytes: (id: string): Uint8Array<ArrayBuffer> | null => bytesOf.get(id)?.bytes ?? null,
    /** How many files a conversation holds and their bytes together (for its limits). */
    usage: (conversationId: string) => usage.get(conversationId) ?? { files: 0, bytes: 0 },
  }
}
