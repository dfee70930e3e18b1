import type { SQL } from 'bun'
import type { AttachmentRow, AttachmentStore } from './store.ts'

/** bytea for the file (Bun.sql takes a Uint8Array and gives a Buffer, handed on as a plain Uint8Array); counts and sums cast to int. */
export function postgresAttachmentStore(sql: SQL): AttachmentStore {
  return {
    async insert(row, bytes) {
      await sql`INSERT INTO attachments (id, workspace_id, chatbot_id, conversation_id, key_hash, content_type, byte_size, filename, sha256, uploaded_by, created_at, bytes)
        VALUES (${row.id}, ${row.workspace_id}, ${row.chatbot_id}, ${row.conversation_id}, ${row.key_hash}, ${row.content_type}, ${row.byte_size},
          ${row.filename}, ${row.sha256}, ${row.uploaded_by}, ${row.created_at}, ${bytes})`
    },
    async get(id) {
      const [row] = await sql<AttachmentRow[]>`SELECT id, workspace_id, chatbot_id, conversation_id, key_hash, content_type, byte_size, filename, sha256,
        uploaded_by, created_at FROM attachments WHERE id = ${id}`
      return row ?? null
    },
    async bytes(id) {
      const [row] = await sql<{ bytes: Uint8Array }[]>`SELECT bytes FROM attachments WHERE id = ${id}`
      if (!row) return null
      const copy = new Uint8Array(row.bytes.byteLength)
      copy.set(row.bytes)
      return copy
    },
    async usage(conversationId) {
      const [row] = await sql<{ files: number; bytes: number }[]>`
        SELECT count(*)::int AS files, coalesce(sum(byte_size), 0)::bigint AS bytes FROM attachments WHERE conversation_id = ${conversationId}`
      return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) }
    },
  }
}
