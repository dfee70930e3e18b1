import type { AttachmentRecord } from './model.ts'

/** A stored attachment's row: the record, and the digest of its address's key. */
export interface AttachmentRow extends AttachmentRecord {
  key_hash: string
}

/**
 * The attachments table (migration 19; docs/architecture.md, "The store seam"): a BLOB on
 * SQLite, bytea on PostgreSQL. The bytes are read only when a file is served.
 */
export interface AttachmentStore {
  /** Run it in a unit. */
  insert(row: AttachmentRow, bytes: Uint8Array): Promise<void>
  get(id: string): Promise<AttachmentRow | null>
  bytes(id: string): Promise<Uint8Array<ArrayBuffer> | null>
  /** How many files a conversation holds and their bytes together (for its limits). */
  usage(conversationId: string): Promise<{ files: number; bytes: number }>
}
