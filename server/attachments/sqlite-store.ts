import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { AttachmentRow, AttachmentStore } from './store.ts'

const COLUMNS = 'id, workspace_id, chatbot_id, conversation_id, key_hash, content_type, byte_size, filename, sha256, uploaded_by, created_at'

export function sqliteAttachmentStore(db: Database): AttachmentStore {
  const insert = db.query<unknown, [string, string, string, string, string, string, number, string, string, string, string, Uint8Array]>(
    `INSERT INTO attachments (${COLUMNS}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const byId = db.query<AttachmentRow, [string]>(`SELECT ${COLUMNS} FROM attachments WHERE id = ?`)
  const bytesOf = db.query<{ bytes: Uint8Array<ArrayBuffer> }, [string]>('SELECT bytes FROM attachments WHERE id = ?')
  const usage = db.query<{ files: number; bytes: number }, [string]>(
    'SELECT count(*) AS files, coalesce(sum(byte_size), 0) AS bytes FROM attachments WHERE conversation_id = ?',
  )

  return {
    insert: (row, bytes) =>
      settled(() => {
        insert.run(row.id, row.workspace_id, row.chatbot_id, row.conversation_id, row.key_hash, row.content_type, row.byte_size, row.filename, row.sha256, row.uploaded_by, row.created_at, bytes)
      }),
    get: (id) => settled(() => byId.get(id) ?? null),
    bytes: (id) => settled(() => bytesOf.get(id)?.bytes ?? null),
    usage: (conversationId) => settled(() => usage.get(conversationId) ?? { files: 0, bytes: 0 }),
  }
}
